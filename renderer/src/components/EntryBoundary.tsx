/**
 * Containment of one transcript entry, tool card or app view (docs/ARCHITECTURE.md
 * "Conversations"): a React error boundary around it, so an entry whose rendering throws (a
 * stored entry of an unexpected shape, input that exhausts the stack) shows "Could not display
 * this entry" with its raw text as plain text, and everything else — the other entries, the
 * composer, the app — keeps working. Without it React unmounts the whole app, and since the app
 * reopens the last conversation, it would be dead after every reload.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from '../i18n';

/** What a boundary contains (words the notice, and names it in the log). */
export type ContainedPart = 'entry' | 'tool' | 'view';

/** Props of `EntryBoundary`. */
export interface EntryBoundaryProps {
  /** What is inside: a message, a tool card, an app view. */
  part: ContainedPart;
  /**
   * The content it shows; when it changes (compared with `Object.is`: pass the entry object,
   * which the store replaces on every change) a failed boundary tries to render it again.
   */
  resetKey: unknown;
  /** The raw text shown on request when rendering failed (called only then; may throw). */
  raw: () => string;
  /** An id for the log (an entry id; never content). */
  label: string;
  children: ReactNode;
}

/** Whether the boundary caught an error, for the content it was given as `key`. */
type BoundaryState = { kind: 'ok'; key: unknown } | { kind: 'failed'; key: unknown };

/**
 * An error boundary for one entry, tool card or app view. A render error inside shows the notice
 * (`EntryFailed`) in its place; it is logged to the console by the error's type, the part, the
 * entry id and the component stack — not its message, which may quote the content.
 */
export class EntryBoundary extends Component<EntryBoundaryProps, BoundaryState> {
  override state: BoundaryState = { kind: 'ok', key: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { kind: 'failed' };
  }

  static getDerivedStateFromProps(props: EntryBoundaryProps, state: BoundaryState): BoundaryState | null {
    // New content gets a new try.
    return Object.is(props.resetKey, state.key) ? null : { kind: 'ok', key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const type = error instanceof Error ? error.name : typeof error;
    console.error(`Could not display ${this.props.part} ${this.props.label}: ${type}`, info.componentStack ?? '');
  }

  override render(): ReactNode {
    if (this.state.kind === 'failed') return <EntryFailed part={this.props.part} raw={this.props.raw} />;
    return this.props.children;
  }
}

/** The raw text, or a note when even that cannot be had. */
function rawOrNothing(raw: () => string): string | null {
  try {
    return raw();
  } catch {
    return null;
  }
}

/** The notice in place of content that could not be displayed, with its raw text (plain text) behind a disclosure. */
function EntryFailed({ part, raw }: { part: ContainedPart; raw: () => string }) {
  const { t } = useTranslation();
  const text = rawOrNothing(raw);
  return (
    <div className="notice error entry-failed" role="alert" data-testid="entry-failed" data-part={part}>
      <div>{part === 'view' ? t('chat.viewFailed') : t('chat.entryFailed')}</div>
      {text === null ? (
        <div className="muted small">{t('chat.entryNoRaw')}</div>
      ) : (
        <details>
          <summary>{t('chat.entryRaw')}</summary>
          <pre className="entry-raw" data-testid="entry-raw">
            {text}
          </pre>
        </details>
      )}
    </div>
  );
}

/** JSON of a value, pretty; null when it cannot be written (cycles, nesting deeper than the stack). */
function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value, null, 2) ?? null;
  } catch {
    return null;
  }
}

/**
 * The raw text of a transcript entry as the notice shows it: a message's text; a tool call's
 * result texts (and its error); for anything of another shape (a damaged stored entry), the
 * entry as JSON, else its string form.
 * @param item a transcript entry as stored — of any shape, since it is what failed to render
 */
export function entryRawText(item: unknown): string {
  if (typeof item === 'object' && item !== null) {
    const e = item as { text?: unknown; content?: unknown; error?: unknown };
    if (typeof e.text === 'string') return e.text;
    if (Array.isArray(e.content)) {
      const parts = e.content.flatMap((c: unknown) => (typeof c === 'object' && c !== null && typeof (c as { text?: unknown }).text === 'string' ? [(c as { text: string }).text] : []));
      if (typeof e.error === 'string') parts.push(e.error);
      if (parts.length) return parts.join('\n\n');
    }
  }
  return jsonOf(item) ?? String(item);
}
