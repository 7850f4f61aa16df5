/**
 * A local server's sandbox settings in its config entry (`sandbox`, docs/ARCHITECTURE.md
 * "Sandbox"): reading them from the file, applying the form's PATCH, and the effective settings
 * (defaults for an entry that says nothing). The file keeps `sandbox` only when it differs from
 * the defaults, so existing entries stay as they are and are sandboxed.
 */
import { DEFAULT_SANDBOX_SETTINGS, sandboxPatchSchema, type SandboxPatch, type SandboxSettings } from '../../../preload/contract/index.js';
import { schemaRefusal } from './entry-parts.js';

/** The effective settings of an entry's stored `sandbox` (absent → the defaults). */
export function effectiveSandbox(stored: SandboxSettings | undefined): SandboxSettings {
  return stored ?? DEFAULT_SANDBOX_SETTINGS;
}

/** `s`, or undefined when it equals the defaults (the file stays minimal). */
function minimal(s: SandboxSettings): SandboxSettings | undefined {
  const d = DEFAULT_SANDBOX_SETTINGS;
  return s.enabled === d.enabled && !s.read.length && !s.write.length && !s.hosts.length ? undefined : s;
}

/**
 * Read an entry's `sandbox` (absent or null → undefined = defaults).
 * @throws ConfigError naming the field (`sandbox.hosts.0`) when it is malformed.
 */
export function parseSandboxEntry(raw: unknown): SandboxSettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  return applySandboxPatch(undefined, raw);
}

/**
 * Apply a sandbox PATCH (each field absent → keep, present → replace) to stored settings.
 * @returns the settings to store (undefined = the defaults). @throws ConfigError when malformed.
 */
export function applySandboxPatch(stored: SandboxSettings | undefined, patch: unknown): SandboxSettings | undefined {
  const r = sandboxPatchSchema.safeParse(patch);
  if (!r.success) {
    const issue = r.error.issues[0];
    const at = ['sandbox', ...(issue?.path ?? [])].join('.');
    throw schemaRefusal(r.error, 'sandbox', `${at}: ${issue?.message ?? 'invalid'}`);
  }
  const p: SandboxPatch = r.data;
  const cur = effectiveSandbox(stored);
  return minimal({
    enabled: p.enabled ?? cur.enabled,
    read: [...new Set(p.read ?? cur.read)],
    write: [...new Set(p.write ?? cur.write)],
    hosts: [...new Set(p.hosts ?? cur.hosts)],
  });
}
