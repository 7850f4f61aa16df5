/**
 * What one transport shows in the window (docs/ARCHITECTURE.md "The window's rooms",
 * "Transports"): its choice in the Add form, its target fields (command or URL) in the Add and Edit
 * forms, the name of its secret values (environment variables or headers), its card's badge and
 * target line. One module per transport (stdio.tsx, streamable-http.ts, sse.ts; the remote ones
 * share remote.tsx), keyed by the view's `type` in index.ts.
 */
import type { ReactNode } from 'react';
import type { ServerInput, ServerPatch, ServerView } from '../../../preload/contract/index.js';
import type { AuthFormState } from '../components/AuthFields';
import type { UrlSecretEdits } from '../components/SecretParts';

/** A server's config `type`. */
export type TransportType = ServerView['type'];

/** The Add form's target fields, whatever the transport (each uses its own). */
export interface AddDraft {
  command: string;
  secretArgs: number[];
  url: string;
  auth: AuthFormState;
}

/** The Edit form's target fields, whatever the transport. */
export interface EditDraft {
  command: string;
  /** The command line as the form opened (unchanged = not sent). */
  initialCommand: string;
  marked: number[];
  url: string;
  urlEdits: UrlSecretEdits;
  auth: AuthFormState;
}

/** How a transport's secret values (env variables or headers) are named in the forms and card. */
export interface ValueRowsUi {
  /** The field of the input and the PATCH they go to. */
  field: 'env' | 'headers';
  /** What a name must match (env variable name, or HTTP token). */
  nameRule: RegExp;
  /** Placeholder of a name input: an example name, worded as one ("e.g. API_KEY"). */
  placeholder(): string;
  /** Title of the rows in the Add form. */
  title(): string;
  /** Title of the stored values in the Edit form. */
  editTitle(): string;
  /** Label before the names on the card. */
  cardTitle(): string;
  /** The "add a row" button. */
  addLabel(): string;
  /** Labels of row `n` (from 1) in the Add form. */
  nameLabel(n: number): string;
  valueLabel(n: number): string;
  /** Labels of new row `n` (from 1) in the Edit form. */
  newNameLabel(n: number): string;
  newValueLabel(n: number): string;
  /** Error for names that break {@link nameRule}: several (Add), one (Edit). */
  badNames(names: string): string;
  badName(name: string): string;
}

/** A transport as the window shows it. */
export interface TransportUi {
  readonly type: TransportType;
  /** Its choice in the Add form's type list. */
  option(): string;
  /** The card's badge while the server is not ready (`stdio`, `http`, `sse`). */
  readonly badge: string;
  /** The card's target line: the command line or the (masked) URL. */
  target(server: Pick<ServerView, 'command' | 'url'>): string;
  /** Its secret values' names. */
  readonly values: ValueRowsUi;
  /** Add form: the target inputs and what goes with them (secret arguments, or authorization). */
  AddTarget(props: { draft: AddDraft; set: (patch: Partial<AddDraft>) => void; errors: { command?: ReactNode; url?: ReactNode } }): ReactNode;
  /** Add form: errors of the target fields, by field. */
  checkTarget(draft: AddDraft): { command?: string; url?: string };
  /**
   * Add form: the contract input (after {@link checkTarget} passed).
   * @throws Error with a user-facing message (e.g. a bearer kind without a token).
   */
  input(draft: AddDraft, values: Record<string, string>, timeout_seconds: number): ServerInput;
  /** Edit form: the target input and its secret parts (secret arguments, or URL secrets). */
  EditTarget(props: { server: ServerView; draft: EditDraft; set: (patch: Partial<EditDraft>) => void }): ReactNode;
  /** Edit form: what comes after the values (authorization of a remote server); null = nothing. */
  EditAuth(props: { server: ServerView; draft: EditDraft; set: (patch: Partial<EditDraft>) => void }): ReactNode;
  /**
   * Edit form: the PATCH of the target fields (command and secret arguments, or URL and its
   * secrets); absent → keep. @throws Error with a user-facing message.
   */
  targetPatch(server: ServerView, draft: EditDraft): ServerPatch;
  /** Edit form: the PATCH of the authorization (none for stdio). @throws Error with a user-facing message. */
  authPatch(server: ServerView, draft: EditDraft): ServerPatch;
  /** A server's stored secret values of this transport (env or headers). */
  stored(server: Pick<ServerView, 'env' | 'headers'>): ServerView['env'];
}
