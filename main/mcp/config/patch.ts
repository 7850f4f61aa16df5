/**
 * Update semantics of an edit (PATCH) of a stored server config: secret maps and auth secrets —
 * absent → keep, `""` → delete, a value → replace; changing the auth kind drops the other kind's
 * secrets (docs/ARCHITECTURE.md "Update semantics (PATCH)").
 */
import type { AuthPatch, ServerPatch } from '../../../preload/contract/index.js';
import { applyToolSettingsPatch, type ToolSettingsMap } from '../tool-settings.js';
import { ConfigError, withToolSettings, type AuthConfig, type ServerConfig } from './schema.js';
import { normalizeRoots, RootsInputError } from '../protocol/roots.js';

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
    if (!base.token) throw new ConfigError('A bearer token is required.');
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
 * Apply a PATCH to a stored config, returning a new object (the input is not modified).
 * @throws ConfigError when the patch does not fit the server's type (e.g. `url` on a local server).
 */
export function applyPatch(cfg: ServerConfig, patch: ServerPatch): ServerConfig {
  // `roots`: absent → keep, a list → replace (normalized), `null` → follow the default roots.
  let roots: string[] | undefined;
  try {
    roots = patch.roots === undefined ? cfg.roots : patch.roots === null ? undefined : normalizeRoots(patch.roots);
  } catch (err) {
    if (err instanceof RootsInputError) throw new ConfigError(`roots: ${err.message}`, 'roots');
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
    throw new ConfigError((err as Error).message);
  }
  if (cfg.type === 'local') {
    if (patch.url !== undefined || patch.headers !== undefined || patch.auth !== undefined) throw new ConfigError('url, headers and auth apply to remote servers only');
    return withToolSettings({ type: 'local', command: patch.command ? [...patch.command] : [...cfg.command], env: mergeSecretMap(cfg.env, patch.env), ...common }, tools);
  }
  if (patch.command !== undefined || patch.env !== undefined) throw new ConfigError('command and env apply to local servers only');
  return withToolSettings({ type: cfg.type, url: patch.url ?? cfg.url, headers: mergeSecretMap(cfg.headers, patch.headers), auth: applyAuthPatch(cfg.auth, patch.auth), ...common }, tools);
}
