/**
 * The window's pure logic of the local-server sandbox (docs/ARCHITECTURE.md "Sandbox"): the form's
 * draft of a server's sandbox settings (lists as one-per-line text), the add input and the edit
 * PATCH built from it, which form field an error from main belongs to, and the PATCH that allows
 * one denial for its server. No DOM, no i18n: tested under Node (test/unit/renderer/).
 */
import type { SandboxDenial, SandboxPatch, SandboxSettings } from '../../../../preload/contract/index.js';

/** The settings a server has when its entry says nothing (the contract's `DEFAULT_SANDBOX_SETTINGS`). */
export const SANDBOX_DEFAULTS: SandboxSettings = { enabled: true, read: [], write: [], hosts: [] };

/** The form's draft: the switch, and each list as text with one entry per line. */
export interface SandboxDraft {
  enabled: boolean;
  read: string;
  write: string;
  hosts: string;
}

/** The form fields of the sandbox section. */
export type SandboxField = 'enabled' | 'read' | 'write' | 'hosts';

/** One field's error: the entry main refused (null when main named no entry) and main's words. */
export interface SandboxFieldError {
  value: string | null;
  message: string;
}

/** The draft of stored settings (null = a new server: the defaults). */
export function draftOf(settings: SandboxSettings | null): SandboxDraft {
  const s = settings ?? SANDBOX_DEFAULTS;
  return { enabled: s.enabled, read: s.read.join('\n'), write: s.write.join('\n'), hosts: s.hosts.join('\n') };
}

/** The entries of a one-per-line text: trimmed, blank lines dropped, duplicates dropped (first kept). */
export function linesOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean))];
}

/** The settings a draft stands for (the add form's `sandbox` input). */
export function settingsOf(d: SandboxDraft): SandboxSettings {
  return { enabled: d.enabled, read: linesOf(d.read), write: linesOf(d.write), hosts: linesOf(d.hosts) };
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The edit form's PATCH: only the fields that differ from the stored settings (each absent →
 * keep, present → replace); undefined when nothing changed.
 */
export function sandboxPatchOf(stored: SandboxSettings | null, d: SandboxDraft): SandboxPatch | undefined {
  const cur = stored ?? SANDBOX_DEFAULTS;
  const next = settingsOf(d);
  const patch: SandboxPatch = {};
  if (next.enabled !== cur.enabled) patch.enabled = next.enabled;
  if (!sameList(next.read, cur.read)) patch.read = next.read;
  if (!sameList(next.write, cur.write)) patch.write = next.write;
  if (!sameList(next.hosts, cur.hosts)) patch.hosts = next.hosts;
  return Object.keys(patch).length ? patch : undefined;
}

/**
 * The sandbox field an error's field path from main names (`config.sandbox.hosts.0`,
 * `patch.sandbox.read`, `sandbox.write.2`), with the index of the refused entry (null when none);
 * null when the path is not about the sandbox.
 */
export function sandboxFieldOf(path: string | undefined): { field: SandboxField; index: number | null } | null {
  const m = path ? /(?:^|\.)sandbox\.(enabled|read|write|hosts)(?:\.(\d+))?/.exec(path) : null;
  if (!m) return null;
  return { field: m[1] as SandboxField, index: m[2] === undefined ? null : Number(m[2]) };
}

/**
 * The error of one field: the entry at main's index in what was sent (the draft's list), so the
 * form can say which line was refused.
 */
export function fieldErrorOf(d: SandboxDraft, at: { field: SandboxField; index: number | null }, message: string): SandboxFieldError {
  const list = at.field === 'enabled' ? [] : linesOf(d[at.field]);
  const value = at.index !== null && at.index < list.length ? list[at.index]! : null;
  return { value, message };
}

/**
 * The host rule that allows a refused connection's `host:port` (IPv6 in brackets, as the
 * contract's host rules want): the host on that port only.
 */
export function hostRuleOf(target: string): string {
  const m = /^(.*):(\d{1,5})$/.exec(target);
  if (!m) return target;
  const host = m[1]!.replace(/^\[|\]$/g, '');
  return `${host.includes(':') ? `[${host}]` : host}:${m[2]}`;
}

/**
 * The PATCH that allows one denial for its server: the path appended to `read` (or `write`), or
 * the host to `hosts`, after the server's current lists (nothing is added twice).
 */
export function allowPatchOf(settings: SandboxSettings | null, denial: Pick<SandboxDenial, 'kind' | 'target'>): SandboxPatch {
  const cur = settings ?? SANDBOX_DEFAULTS;
  const add = (list: string[], v: string): string[] => (list.includes(v) ? [...list] : [...list, v]);
  if (denial.kind === 'read') return { read: add(cur.read, denial.target) };
  if (denial.kind === 'write') return { write: add(cur.write, denial.target) };
  return { hosts: add(cur.hosts, hostRuleOf(denial.target)) };
}

/** The `sandbox.*` string key naming a `process.platform` value (`win32` → Windows, `darwin` → macOS); null: show the value as it is. */
export function platformKey(platform: string): 'platformWin32' | 'platformDarwin' | null {
  return platform === 'win32' ? 'platformWin32' : platform === 'darwin' ? 'platformDarwin' : null;
}
