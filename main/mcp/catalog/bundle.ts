/**
 * The server catalog's one job here: MCP Bundles (`.mcpb`: a zip of `manifest.json` and the
 * server) — check one, unpack it into the state dir, and make its server config from the
 * manifest's `server.mcp_config` and the user's `user_config` answers (docs/ARCHITECTURE.md
 * "Server catalog", bundles). The manifest is validated with @anthropic-ai/mcpb's own schemas and
 * its variables (`${__dirname}`, `${user_config.KEY}`, …) are filled with its own function.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getMcpConfigForManifest, vAny, VERSIONED_MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb/browser';
import type { CatalogField, ServerInput } from '../../../preload/contract/index.js';
import { CatalogInputError, type FieldValues } from './mapping.js';
import { reason, reasonLogText, type CatalogProblem } from './reasons.js';
import { readZip, ZipRefusedError, type ZipEntry } from './zip.js';

/**
 * A bundle that was refused (not a zip, unsafe entries, invalid manifest, wrong hash) or could not
 * be downloaded. Download and hash failures carry `problem` (a structured `CatalogProblem` the
 * window renders in its language; `message` is then its log form); the others an English message
 * naming what in the bundle is wrong.
 */
export class BundleError extends Error {
  override name = 'BundleError';
  readonly problem: CatalogProblem | undefined;
  constructor(what: string | CatalogProblem) {
    const problem = typeof what === 'string' ? undefined : reason(what);
    super(problem ? `Bundle: ${reasonLogText(problem)}` : (what as string));
    this.problem = problem;
  }
}

type Manifest = NonNullable<ReturnType<typeof vAny.McpbManifestSchema.safeParse>['data']>;
type UserConfigOption = NonNullable<Manifest['user_config']>[string];

/** A checked bundle, held in memory until it is installed. */
export interface InspectedBundle {
  manifest: Manifest;
  entries: ZipEntry[];
  files: Map<string, Uint8Array>;
  fields: CatalogField[];
  /** The program the server is started with, as the manifest declares it. */
  command: string;
}

/** Check a file's SHA-256 against the hex digest a registry entry declares. @throws BundleError */
export function verifySha256(bytes: Uint8Array, expected: string): void {
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected.toLowerCase()) throw new BundleError({ code: 'bundle_sha256_mismatch' });
}

function fieldOf(key: string, o: UserConfigOption): CatalogField {
  const def = o.default === undefined ? null : Array.isArray(o.default) ? o.default.join('\n') : String(o.default);
  return {
    id: `user_config:${key}`,
    kind: 'user_config',
    label: o.title || key,
    description: o.description || null,
    required: o.required === true,
    secret: o.sensitive === true,
    format: o.type === 'number' ? 'number' : o.type === 'boolean' ? 'boolean' : o.type === 'string' ? 'string' : 'filepath',
    // `${HOME}`-style defaults are filled when the config is built.
    default: def,
    placeholder: null,
    choices: null,
    repeated: o.multiple === true,
  };
}

/** Every string of the manifest's command line (all platforms), to find secrets placed there. */
function commandLineStrings(m: Manifest): string[] {
  const c = m.server.mcp_config;
  if (!c) return [];
  const overrides = Object.values((c as { platform_overrides?: Record<string, { command?: string; args?: string[] }> }).platform_overrides ?? {});
  return [c.command, ...(c.args ?? []), ...overrides.flatMap((o) => [o.command ?? '', ...(o.args ?? [])])];
}

/**
 * Check a bundle file: a safe zip (./zip.ts), a `manifest.json` that validates, a server with an
 * `mcp_config`, no sensitive value on the command line.
 * @throws BundleError with the reason
 */
export function inspectBundle(bytes: Uint8Array): InspectedBundle {
  let zip: ReturnType<typeof readZip>;
  try {
    zip = readZip(bytes);
  } catch (err) {
    if (err instanceof ZipRefusedError) throw new BundleError(err.message);
    throw err;
  }
  const raw = zip.files.get('manifest.json');
  if (!raw) throw new BundleError('The bundle has no manifest.json at its top level.');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new BundleError('The bundle’s manifest.json is not valid JSON.');
  }
  // The schema of the manifest's own version names the field at fault; the union only says "invalid".
  const declared = (json as { manifest_version?: unknown; dxt_version?: unknown } | null)?.manifest_version ?? (json as { dxt_version?: unknown } | null)?.dxt_version;
  const own = typeof declared === 'string' && Object.prototype.hasOwnProperty.call(VERSIONED_MANIFEST_SCHEMAS, declared) ? VERSIONED_MANIFEST_SCHEMAS[declared as keyof typeof VERSIONED_MANIFEST_SCHEMAS] : null;
  const strict = own?.safeParse(json);
  const parsed = strict && !strict.success ? strict : vAny.McpbManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BundleError(`The bundle’s manifest does not validate: ${issue ? `${issue.path.join('.') || '(manifest)'}: ${issue.message}` : 'invalid'}`.slice(0, 500));
  }
  const manifest = parsed.data;
  const cfg = manifest.server.mcp_config;
  if (!cfg?.command) throw new BundleError('The bundle’s manifest does not say how to start its server (server.mcp_config).');
  const userConfig = Object.entries(manifest.user_config ?? {});
  for (const [key, o] of userConfig) {
    if (!o.sensitive) continue;
    if (commandLineStrings(manifest).some((s) => s.includes(`\${user_config.${key}}`))) throw new BundleError(`The bundle puts the secret "${key}" on the command line, where it could not be kept out of the config file.`);
  }
  return { manifest, entries: zip.entries, files: zip.files, fields: userConfig.map(([k, o]) => fieldOf(k, o)), command: cfg.command };
}

/**
 * Write the bundle's files into `dir` (created; must not exist). Files are created exclusively
 * (`wx`), executables keep their execute bit, nothing is followed out of `dir`.
 * @throws BundleError, or the fs error (the folder is removed again)
 */
export async function unpackBundle(b: InspectedBundle, dir: string): Promise<void> {
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  await fs.mkdir(dir, { mode: 0o700 });
  const root = await fs.realpath(dir);
  try {
    for (const e of b.entries) {
      const target = path.resolve(root, e.name);
      if (target !== root && !target.startsWith(root + path.sep)) throw new BundleError(`The bundle entry "${e.name.slice(0, 100)}" would be written outside its folder.`);
      if (e.isDirectory) {
        await fs.mkdir(target, { recursive: true, mode: 0o700 });
        continue;
      }
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const data = b.files.get(e.name) ?? new Uint8Array();
      await fs.writeFile(target, data, { flag: 'wx', mode: e.mode !== null && e.mode & 0o111 ? 0o700 : 0o600 });
    }
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    // A file and a folder of the same name (`a` and `a/b`) cannot both be written.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw new BundleError('The bundle has a file and a folder with the same name.');
    throw err;
  }
}

/** The user_config answers in the shape @anthropic-ai/mcpb takes. @throws CatalogInputError */
function userConfigValues(b: InspectedBundle, values: FieldValues): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const f of b.fields) {
    const key = f.id.slice('user_config:'.length);
    const raw = Object.prototype.hasOwnProperty.call(values, f.id) ? values[f.id] : undefined;
    const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v) => v !== '');
    if (list.length === 0) {
      if (f.required && f.default === null) throw new CatalogInputError(`${f.label} is required.`, f.id);
      continue;
    }
    const o = b.manifest.user_config![key]!;
    if (f.format === 'number') {
      const n = Number(list[0]);
      if (!Number.isFinite(n) || (o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) throw new CatalogInputError(`${f.label} must be a number${o.min !== undefined || o.max !== undefined ? ` between ${o.min ?? '…'} and ${o.max ?? '…'}` : ''}.`, f.id);
      out[key] = n;
    } else if (f.format === 'boolean') {
      if (list[0] !== 'true' && list[0] !== 'false') throw new CatalogInputError(`${f.label} must be true or false.`, f.id);
      out[key] = list[0] === 'true';
    } else out[key] = f.repeated ? list : list[0]!;
  }
  return out;
}

/**
 * The server config of an unpacked bundle: `mcp_config` with its variables filled (the bundle's
 * folder, the user's folders, the answers). Arguments that stay unfilled (an optional answer not
 * given) are left out. @throws CatalogInputError, BundleError
 */
export async function bundleConfig(b: InspectedBundle, dir: string, values: FieldValues): Promise<ServerInput> {
  const home = os.homedir();
  const cfg = await getMcpConfigForManifest({
    manifest: b.manifest,
    extensionPath: dir,
    systemDirs: { HOME: home, DESKTOP: path.join(home, 'Desktop'), DOCUMENTS: path.join(home, 'Documents'), DOWNLOADS: path.join(home, 'Downloads') },
    userConfig: userConfigValues(b, values),
    pathSeparator: path.sep,
  });
  if (!cfg) throw new BundleError('The bundle’s server could not be configured with these answers.');
  const unfilled = (s: string): boolean => /\$\{[^}]*\}/.test(s);
  const args = (cfg.args ?? []).filter((a) => !unfilled(a));
  const env = Object.fromEntries(Object.entries(cfg.env ?? {}).filter(([, v]) => !unfilled(v)));
  if (unfilled(cfg.command)) throw new BundleError('The bundle’s start command has a variable that could not be filled.');
  return { type: 'local', command: [cfg.command, ...args], env };
}
