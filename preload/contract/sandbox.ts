/**
 * The contract of the local-server sandbox (docs/ARCHITECTURE.md "Sandbox"): the per-server
 * settings the user edits, the policy main shows for a server, whether it is sandboxed and why
 * not, and the denials it met.
 */
import { z } from 'zod';
import { LIMITS, noControl } from './limits.js';

const folderSchema = noControl(z.string().min(1).max(LIMITS.shortText)).refine(
  (p) => p.startsWith('/') || p.startsWith('~/') || p === '~' || /^[A-Za-z]:[\\/]/.test(p),
  'Give an absolute folder (starting with / or ~/)',
);

/**
 * A host a sandboxed server may reach: a DNS name, `*.` + a DNS name (any subdomain), or an IP
 * address, optionally `:port` (absent = any port).
 */
export const sandboxHostSchema = z
  .string()
  .min(1)
  .max(260)
  .regex(/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/, 'Give a host name such as api.example.com or *.example.com, optionally with :port');

/**
 * One server's sandbox settings (stored in its config entry as `sandbox`): `enabled` (default
 * true), extra folders to read or write (absolute or `~/…`), and hosts it may reach.
 */
export const sandboxSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  read: z.array(folderSchema).max(64),
  write: z.array(folderSchema).max(64),
  hosts: z.array(sandboxHostSchema).max(64),
});
export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>;

/** PATCH of the sandbox settings: each field absent → keep, present → replace. */
export const sandboxPatchSchema = sandboxSettingsSchema.partial();
export type SandboxPatch = z.infer<typeof sandboxPatchSchema>;

/** The settings a server has when its entry says nothing: sandboxed, nothing extra. */
export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { enabled: true, read: [], write: [], hosts: [] };

/**
 * What a sandboxed server may do, as shown on its card and in the form: folders it reads and
 * writes (absolute, `~` for the home folder), paths it never sees, grants refused because they lie
 * inside a denied path, hosts it may reach, and the registries it may reach while it starts.
 */
export interface SandboxPolicyView {
  read: string[];
  write: string[];
  deny: string[];
  refused: string[];
  scratch: string;
  hosts: string[];
  fetch_hosts: string[];
}

/**
 * Whether a local server runs sandboxed (docs/ARCHITECTURE.md "Sandbox"):
 * - `on`: in the sandbox named by `engine`, with `policy` (null until its first start computes it);
 * - `off`: the user turned the sandbox off for this server (the card shows "unsandboxed");
 * - `unavailable`: it runs unsandboxed because this machine cannot sandbox: `platform` (no
 *   sandbox for this OS yet, e.g. Windows), `no_bubblewrap` (the `bwrap` program is missing),
 *   `no_namespaces` (bubblewrap cannot create namespaces here); `detail` is the system's words or null.
 */
export type SandboxState =
  | { kind: 'on'; engine: 'bubblewrap'; policy: SandboxPolicyView | null }
  | { kind: 'off' }
  | { kind: 'unavailable'; reason: 'platform' | 'no_bubblewrap' | 'no_namespaces'; platform: string; detail: string | null };

/**
 * Something the sandbox stopped: reading or writing a path outside the policy, or connecting to a
 * host not allowed. `target` is the path (absolute), `host:port` or `host`; `at` ms epoch (the
 * latest); `count` how many times. Kept across the server's restarts until the policy grants it.
 * `grantable` false: the path lies in what the sandbox never shows (the app's state folder,
 * credentials…), so no setting can allow it and the card offers none.
 */
export interface SandboxDenial {
  kind: 'read' | 'write' | 'connect';
  target: string;
  at: number;
  count: number;
  grantable: boolean;
}

/**
 * The reverse-DNS key under which a publisher declares what its server needs from the sandbox:
 * in a `.mcpb` manifest's `_meta`, and in a `server.json`'s
 * `_meta["io.modelcontextprotocol.registry/publisher-provided"]` (docs/ARCHITECTURE.md "Sandbox").
 */
export const DECLARED_NEEDS_KEY = 'dev.openprogram/sandbox';

/**
 * A declaration's shape: extra folders to read and write (absolute or `~/…`) and hosts to reach,
 * each list optional. Unknown keys are refused, so a typo is reported rather than ignored.
 */
export const declaredNeedsSchema = z.strictObject({
  read: z.array(folderSchema).max(64).optional(),
  write: z.array(folderSchema).max(64).optional(),
  hosts: z.array(sandboxHostSchema).max(64).optional(),
});

/**
 * What a catalog entry or bundle declares it needs from the sandbox, shown before install:
 * - `none`: it declares nothing (the default policy applies);
 * - `declared`: these extra folders and hosts fill the new server's sandbox settings (a folder
 *   inside a path the sandbox never shows is still refused when the server starts);
 * - `invalid`: the declaration does not validate (`detail` in English); it is ignored, the rest of
 *   the entry installs as usual.
 */
export type DeclaredSandboxNeeds =
  | { kind: 'none' }
  | { kind: 'declared'; read: string[]; write: string[]; hosts: string[] }
  | { kind: 'invalid'; detail: string };
