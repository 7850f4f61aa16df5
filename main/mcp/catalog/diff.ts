/**
 * The server catalog's one job here: compare an installed server's config with what a newer
 * registry version would make of it, and the PATCH that applies the update — pure, and never
 * carrying a secret value (docs/ARCHITECTURE.md "Server catalog").
 */
import type { CatalogChange, CatalogField, ServerInput, ServerPatch } from '../../../preload/contract/index.js';
import { detectSecretArgs, maskCommand, maskUrl, type ServerConfig } from '../config.js';
import type { FieldValues } from './mapping.js';
import { NotInstallableError } from './reasons.js';
import { transportFor } from '../transports/registry.js';
import { addedNeeds, mergeNeeds } from '../sandbox/declared-needs.js';
import { applySandboxPatch, effectiveSandbox } from '../config/sandbox-settings.js';

/** A command line for display (arguments with spaces quoted). */
function showCommand(c: string[]): string {
  return c.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

function nameChange(kind: 'env' | 'headers', before: string[], after: string[]): CatalogChange | null {
  const added = after.filter((n) => !before.includes(n));
  const removed = before.filter((n) => !after.includes(n));
  return added.length || removed.length ? { kind, added, removed } : null;
}

/**
 * What replacing `current` by `next` changes: type, command, URL, the NAMES of env vars and
 * headers, and the sandbox needs the new version declares that the server does not have yet. `dropped` are the names the update removes (see {@link updatePatch}).
 */
export function diffConfigs(current: ServerConfig, next: ServerInput, dropped: string[]): CatalogChange[] {
  const out: CatalogChange[] = [];
  if (current.type !== next.type) out.push({ kind: 'type', before: current.type, after: next.type });
  if (current.type === 'local' && next.type === 'local') {
    // Shown masked, as every view (docs/ARCHITECTURE.md "Masked views only").
    const shownBefore = maskCommand(current.command, [...(current.secret_args ?? []), ...detectSecretArgs(current.command, Object.values(current.env))]);
    const shownAfter = maskCommand(next.command, [...(next.secret_args ?? []), ...detectSecretArgs(next.command, Object.values(next.env ?? {}))]);
    if (JSON.stringify(current.command) !== JSON.stringify(next.command)) out.push({ kind: 'command', before: showCommand(shownBefore), after: showCommand(shownAfter) });
    const before = Object.keys(current.env);
    const after = [...before.filter((n) => !dropped.includes(n)), ...Object.keys(next.env ?? {}).filter((n) => !before.includes(n))];
    const c = nameChange('env', before, after);
    if (c) out.push(c);
    const added = addedNeeds(effectiveSandbox(current.sandbox), applySandboxPatch(undefined, next.sandbox ?? {}) ?? undefined);
    if (added) out.push({ kind: 'sandbox', ...added });
  } else if (current.type !== 'local' && next.type !== 'local') {
    if (current.url !== next.url) out.push({ kind: 'url', before: maskUrl(current.url), after: maskUrl(next.url) });
    const before = Object.keys(current.headers);
    const after = [...before.filter((n) => !dropped.includes(n)), ...Object.keys(next.headers ?? {}).filter((n) => !before.includes(n))];
    const c = nameChange('headers', before, after);
    if (c) out.push(c);
  }
  return out;
}

/**
 * The PATCH that turns `current` into `next` (same type): the new command/URL, every value of
 * `next` (unchanged secrets are the same values, so the store keeps their keys), and `""` for the
 * names in `dropped` — names the old registry version defined and the new one does not. Names the
 * user added by hand are kept, as are the user's sandbox settings (newly declared needs are added).
 * @throws NotInstallableError when the type changes (an update cannot turn a local server into a remote one).
 */
export function updatePatch(current: ServerConfig, next: ServerInput, dropped: string[]): ServerPatch {
  if (current.type === 'local' && next.type === 'local') {
    const env: Record<string, string> = { ...(next.env ?? {}) };
    for (const n of dropped) if (!(n in env) && n in current.env) env[n] = '';
    // Sandbox needs the new version declares are added; the user's own settings are kept.
    const now = effectiveSandbox(current.sandbox);
    const merged = mergeNeeds(now, applySandboxPatch(undefined, next.sandbox ?? {}) ?? undefined);
    return { command: [...next.command], env, ...(merged !== now ? { sandbox: merged } : {}) };
  }
  if (current.type !== 'local' && next.type !== 'local' && current.type === next.type) {
    const headers: Record<string, string> = { ...(next.headers ?? {}) };
    for (const n of dropped) if (!(n in headers) && n in current.headers) headers[n] = '';
    return { url: next.url, headers };
  }
  throw new NotInstallableError({ code: 'type_change', before: current.type, after: next.type });
}

/**
 * The answers an update starts from: the remembered command-line/URL answers — each only to a
 * field of the new version with the same id and label (an argument that moved is asked again) —
 * and for each env var or header field the value the installed server has now under that name
 * (so a secret whose name is unchanged is kept without asking again).
 */
export function carriedValues(current: ServerConfig, fields: CatalogField[], remembered: FieldValues, labels?: Record<string, string>): FieldValues {
  const out: FieldValues = {};
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(remembered, f.id)) continue;
    if (labels && labels[f.id] !== f.label) continue;
    out[f.id] = remembered[f.id]!;
  }
  const values: Record<string, string> = transportFor(current).namedValues(current);
  for (const f of fields) {
    if (f.kind !== 'env' && f.kind !== 'header') continue;
    if (Object.prototype.hasOwnProperty.call(values, f.label) && values[f.label] !== '') out[f.id] = values[f.label]!;
  }
  return out;
}

/** Fields that must still be answered: required, no default, no value carried over. */
export function neededFields(fields: CatalogField[], values: FieldValues): CatalogField[] {
  return fields.filter((f) => f.required && f.default === null && !(Object.prototype.hasOwnProperty.call(values, f.id) && values[f.id] !== '' && !(Array.isArray(values[f.id]) && values[f.id]!.length === 0)));
}
