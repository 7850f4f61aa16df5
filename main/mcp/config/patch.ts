/**
 * Update semantics of an edit (PATCH) of a stored server config: secret maps, URL parts and auth
 * secrets — absent → keep, `""` → delete, a value → replace; `***` in a command or URL keeps the
 * stored secret it stands for; changing the auth kind drops the other kind's secrets; `type`
 * switches a remote server between Streamable HTTP and SSE, keeping the rest
 * (docs/ARCHITECTURE.md "Update semantics (PATCH)").
 */
import type { AuthPatch, ServerPatch } from '../../../preload/contract/index.js';
import { applyToolSettingsPatch, type ToolSettingsMap } from '../tool-settings.js';
import { ConfigError, withSecretArgs, withToolSettings, type AuthConfig, type LocalServerConfig, type ServerConfig } from './schema.js';
import { fillPlaceholders, maskedPositions, PlaceholderError } from './secret-args.js';
import { describeUrlPart, encodeUrlPart, joinUrl, splitUrl } from './url-parts.js';
import { SECRET_PLACEHOLDER } from '../../secrets/mask.js';
import { normalizeRoots, RootsInputError } from '../protocol/roots.js';
import { applySandboxPatch } from './sandbox-settings.js';
import { ownIssue } from '../../util/validation-issue.js';

/**
 * Apply an auth PATCH: `token` / `client_secret` follow the secret rules (absent → keep, `""` →
 * delete, value → replace); `client_id` / `scope` are replaced when present (`""` clears them).
 * Changing `kind` drops the other kind's secrets (they can be neither read back nor used).
 * @throws ConfigError when switching to bearer without a token.
 */
export function applyAuthPatch(stored: AuthConfig, patch: AuthPatch | undefined): AuthConfig {
  if (!patch) return structuredClone(stored);
  const kind = patch.kind ?? stored.kind;
  const base: AuthConfig = kind === stored.kind ? structuredClone(stored) : kind === 'bearer' ? { kind: 'bearer', token: '' } : kind === 'oauth' ? { kind: 'oauth' } : { kind: 'none' };
  if (base.kind === 'bearer') {
    if (patch.token !== undefined) base.token = patch.token;
    if (!base.token) throw new ConfigError('A bearer token is required.', ownIssue('custom', ['token'], { rule: 'required' }), 'token');
  } else if (base.kind === 'oauth') {
    if (patch.client_secret === '') delete base.client_secret;
    else if (patch.client_secret !== undefined) base.client_secret = patch.client_secret;
    if (patch.client_id === '') delete base.client_id;
    else if (patch.client_id !== undefined) base.client_id = patch.client_id;
    if (patch.scope === '') delete base.scope;
    else if (patch.scope !== undefined) base.scope = patch.scope;
  }
  return base;
}

/**
 * Merge a secret map by PATCH rules (docs/ARCHITECTURE.md "Update semantics (PATCH)"):
 * name absent → preserve; present with a value → replace; present with `""` → delete.
 */
export function mergeSecretMap(stored: Record<string, string>, patch: Record<string, string> | undefined): Record<string, string> {
  if (!patch) return { ...stored };
  const out = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * The command of an edit (docs/ARCHITECTURE.md "Update semantics (PATCH)"): a new command's
 * `***` arguments keep the stored secret arguments they stand for (the k-th `***` ↔ the k-th
 * masked argument of the view); `secret_args` marks more positions (of the new command, or of the
 * stored one when no command is given). Arguments that read as secrets stay secrets.
 * @throws ConfigError for a `***` with nothing stored behind it or a position past the command.
 */
export function applyCommandPatch(cfg: LocalServerConfig, patch: ServerPatch, env: Record<string, string>, isKnownSecret?: (v: string) => boolean): Pick<LocalServerConfig, 'command' | 'secret_args'> {
  let command = [...cfg.command];
  let secret = [...(cfg.secret_args ?? [])];
  if (patch.command) {
    try {
      ({ command, secret } = fillPlaceholders(patch.command, cfg.command, maskedPositions(cfg.command, cfg.secret_args, isKnownSecret)));
    } catch (err) {
      if (err instanceof PlaceholderError) throw new ConfigError(err.message, ownIssue('custom', ['command'], { rule: 'secret_placeholder' }), 'command');
      throw err;
    }
  }
  const marked = patch.secret_args ?? [];
  const bad = marked.find((i) => i >= command.length);
  if (bad !== undefined) throw new ConfigError(`secret_args: there is no argument ${bad}`, ownIssue('too_big', ['secret_args'], { origin: 'number', maximum: command.length - 1 }), 'secret_args');
  const known = isKnownSecret ? command.filter((a, i) => i > 0 && isKnownSecret(a)) : [];
  const out = withSecretArgs({ ...cfg, command, env }, [...secret, ...marked], known);
  return { command: out.command, ...(out.secret_args ? { secret_args: out.secret_args } : {}) };
}

/**
 * The URL of an edit (docs/ARCHITECTURE.md "Update semantics (PATCH)"): a new URL's parts that
 * are `***` keep the stored value of the same part; then `url_secrets` applies PATCH rules per
 * part (absent → keep, `""` → delete, a value → replace, as written in a URL).
 * @throws ConfigError for a `***` part with no stored value.
 */
export function applyUrlPatch(stored: string, url: string | undefined, secrets: Record<string, string> | undefined): string {
  const before = splitUrl(stored).parts;
  const { base, parts } = splitUrl(url ?? stored);
  for (const [part, v] of Object.entries(parts)) {
    if (v !== SECRET_PLACEHOLDER) continue;
    const kept = before[part];
    if (kept === undefined) throw new ConfigError(`The ${describeUrlPart(part)} is "${SECRET_PLACEHOLDER}" but has no stored value; enter it.`, ownIssue('custom', ['url'], { rule: 'secret_placeholder' }), 'url');
    parts[part] = kept;
  }
  const drop = new Set<string>();
  for (const [part, v] of Object.entries(secrets ?? {})) {
    if (v === '') {
      delete parts[part];
      drop.add(part);
    } else parts[part] = encodeUrlPart(part, v);
  }
  return joinUrl(base, parts, drop);
}

/**
 * Apply a PATCH to a stored config, returning a new object (the input is not modified).
 * @param isKnownSecret whether a value is a stored secret (as the view masked arguments with it)
 * @throws ConfigError when the patch does not fit the server's type (e.g. `url` on a local server).
 */
export function applyPatch(cfg: ServerConfig, patch: ServerPatch, isKnownSecret?: (v: string) => boolean): ServerConfig {
  // `roots`: absent → keep, a list → replace (normalized), `null` → follow the default roots.
  let roots: string[] | undefined;
  try {
    roots = patch.roots === undefined ? cfg.roots : patch.roots === null ? undefined : normalizeRoots(patch.roots);
  } catch (err) {
    if (err instanceof RootsInputError) throw new ConfigError(`roots: ${err.message}`, err.issue, 'roots');
    throw err;
  }
  const common = {
    enabled: patch.enabled ?? cfg.enabled,
    timeout_seconds: patch.timeout_seconds ?? cfg.timeout_seconds,
    ...(roots ? { roots: [...roots] } : {}),
  };
  // `tools` follows the tool-settings PATCH rules (main/mcp/tool-settings.ts applyToolSettingsPatch).
  let tools: ToolSettingsMap;
  try {
    tools = applyToolSettingsPatch(cfg.tools, patch.tools);
  } catch (err) {
    throw new ConfigError((err as Error).message, ownIssue('other', ['tools']));
  }
  if (cfg.type === 'local') {
    if (patch.type !== undefined || patch.url !== undefined || patch.url_secrets !== undefined || patch.headers !== undefined || patch.auth !== undefined) throw new ConfigError('type, url, url_secrets, headers and auth apply to remote servers only', ownIssue('custom', [], { rule: 'not_for_type' }));
    const env = mergeSecretMap(cfg.env, patch.env);
    const sandbox = patch.sandbox === undefined ? cfg.sandbox : applySandboxPatch(cfg.sandbox, patch.sandbox);
    return withToolSettings({ type: 'local', ...applyCommandPatch(cfg, patch, env, isKnownSecret), env, ...common, ...(sandbox ? { sandbox } : {}) }, tools);
  }
  if (patch.command !== undefined || patch.secret_args !== undefined || patch.env !== undefined || patch.sandbox !== undefined) throw new ConfigError('command, secret_args, env and sandbox apply to local servers only', ownIssue('custom', [], { rule: 'not_for_type' }));
  return withToolSettings(
    // `type` switches between Streamable HTTP and SSE; everything else of the entry is kept as it is.
    { type: patch.type ?? cfg.type, url: applyUrlPatch(cfg.url, patch.url, patch.url_secrets), headers: mergeSecretMap(cfg.headers, patch.headers), auth: applyAuthPatch(cfg.auth, patch.auth), ...common },
    tools,
  );
}
