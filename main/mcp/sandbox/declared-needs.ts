/**
 * Sandbox needs a publisher declares (docs/ARCHITECTURE.md "Sandbox"): read the declaration from
 * a `.mcpb` manifest's or a `server.json`'s `_meta`, turn it into the new server's sandbox
 * settings at install, and say what an update's declaration adds to a server's settings. Pure.
 *
 * A declaration only fills settings the user sees before Install; it cannot widen what the sandbox
 * never shows (the policy refuses a grant inside a denied path when the server starts).
 */
import { DECLARED_NEEDS_KEY, DEFAULT_SANDBOX_SETTINGS, declaredNeedsSchema, type DeclaredSandboxNeeds, type SandboxSettings } from '../../../preload/contract/index.js';

/** The registry's block for publisher data in a `server.json` `_meta`. */
export const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/**
 * The needs declared under {@link DECLARED_NEEDS_KEY} in `meta` (an `_meta` object; anything else
 * → `none`). A declaration that does not validate → `invalid` with the first problem, in English.
 */
export function readDeclaredNeeds(meta: unknown): DeclaredSandboxNeeds {
  if (!isRecord(meta) || !Object.prototype.hasOwnProperty.call(meta, DECLARED_NEEDS_KEY)) return { kind: 'none' };
  const r = declaredNeedsSchema.safeParse(meta[DECLARED_NEEDS_KEY]);
  if (!r.success) {
    const issue = r.error.issues[0];
    const at = [DECLARED_NEEDS_KEY, ...(issue?.path ?? [])].join('.');
    return { kind: 'invalid', detail: `${at}: ${issue?.message ?? 'invalid'}`.slice(0, 300) };
  }
  const read = unique(r.data.read ?? []);
  const write = unique(r.data.write ?? []);
  const hosts = unique(r.data.hosts ?? []);
  return read.length || write.length || hosts.length ? { kind: 'declared', read, write, hosts } : { kind: 'none' };
}

/** The needs a `server.json` declares: in `_meta["io.modelcontextprotocol.registry/publisher-provided"]`. */
export function serverJsonNeeds(server: { _meta?: unknown }): DeclaredSandboxNeeds {
  const meta = isRecord(server._meta) ? server._meta[PUBLISHER_META] : undefined;
  return readDeclaredNeeds(meta);
}

/** The sandbox settings a new server starts with: the defaults plus what was declared (null: nothing declared). */
export function settingsFromNeeds(needs: DeclaredSandboxNeeds): SandboxSettings | null {
  if (needs.kind !== 'declared') return null;
  return { ...DEFAULT_SANDBOX_SETTINGS, read: [...needs.read], write: [...needs.write], hosts: [...needs.hosts] };
}

/** What `next` (a newer version's declared settings) adds to `current` (the server's settings now). */
export function addedNeeds(current: SandboxSettings, next: SandboxSettings | undefined): { read: string[]; write: string[]; hosts: string[] } | null {
  if (!next) return null;
  const read = next.read.filter((x) => !current.read.includes(x));
  const write = next.write.filter((x) => !current.write.includes(x));
  const hosts = next.hosts.filter((x) => !current.hosts.includes(x));
  return read.length || write.length || hosts.length ? { read, write, hosts } : null;
}

/** `current` with the needs `next` adds (the user's own choices, `enabled` included, kept). */
export function mergeNeeds(current: SandboxSettings, next: SandboxSettings | undefined): SandboxSettings {
  const added = addedNeeds(current, next);
  if (!added) return current;
  return { ...current, read: [...current.read, ...added.read], write: [...current.write, ...added.write], hosts: [...current.hosts, ...added.hosts] };
}
