/**
 * The server catalog's one job here: MCP Bundles (`.mcpb`: a zip of `manifest.json` and the
 * server) — check one, unpack it into the state dir, and make its server config from the
 * manifest's `server.mcp_config` and the user's `user_config` answers (docs/ARCHITECTURE.md
 * "Server catalog", bundles). The manifest is validated with @anthropic-ai/mcpb's own schemas; its
 * variables (`${__dirname}`, `${user_config.KEY}`, …) are found and filled by ./bundle-vars.ts, so
 * a sensitive value can go only to the environment.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vAny, VERSIONED_MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb/browser';
import type { CatalogField, CatalogFixedValue, DeclaredSandboxNeeds, ServerInput } from '../../../preload/contract/index.js';
import { readDeclaredNeeds, settingsFromNeeds } from '../sandbox/declared-needs.js';
import { fillArgs, fillString, refersTo, USER_CONFIG_KEY, type BundleVariables } from './bundle-vars.js';
import { CatalogInputError, type FieldValues } from './mapping.js';
import { reason, reasonLogText, type CatalogProblem } from './reasons.js';
import { readZip, type ZipFile } from './unzip.js';
import { ZipRefusedError } from './zip.js';

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
  /** Exactly the entries the zip reader checked, with their bytes. */
  entries: ZipFile[];
  fields: CatalogField[];
  /** The program the server is started with, as the manifest declares it. */
  command: string;
  /** The arguments and environment variables the manifest sets for this platform, as written. */
  fixed: CatalogFixedValue[];
  /** What the manifest declares it needs from the sandbox (its `_meta`). */
  sandboxNeeds: DeclaredSandboxNeeds;
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

type McpConfig = NonNullable<Manifest['server']['mcp_config']>;
type PlatformConfig = { command?: string; args?: string[]; env?: Record<string, string> };

/** Every string of the manifest's command line (all platforms), to find secrets placed there. */
function commandLineStrings(c: McpConfig): string[] {
  const overrides = Object.values((c as { platform_overrides?: Record<string, PlatformConfig> }).platform_overrides ?? {});
  return [c.command, ...(c.args ?? []), ...overrides.flatMap((o) => [o.command ?? '', ...(o.args ?? [])])];
}

/** The command, arguments and env of `mcp_config` for this platform (an override replaces each part it has). */
function forPlatform(c: McpConfig): { command: string; args: string[]; env: Record<string, string> } {
  const o = (c as { platform_overrides?: Record<string, PlatformConfig> }).platform_overrides?.[process.platform];
  return { command: o?.command || c.command, args: o?.args ?? c.args ?? [], env: o?.env ?? c.env ?? {} };
}

/**
 * Check a bundle file: a safe zip (./zip.ts, extracted by ./unzip.ts), a `manifest.json` that
 * validates, a server with an `mcp_config`, user_config keys that are plain names, no sensitive
 * value on the command line in any spelling (./bundle-vars.ts).
 * @throws BundleError with the reason
 */
export async function inspectBundle(bytes: Uint8Array): Promise<InspectedBundle> {
  let entries: ZipFile[];
  try {
    entries = await readZip(bytes);
  } catch (err) {
    if (err instanceof ZipRefusedError) throw new BundleError(err.message);
    throw err;
  }
  const raw = entries.find((e) => e.name === 'manifest.json' && !e.isDirectory)?.data;
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
    if (!USER_CONFIG_KEY.test(key)) throw new BundleError(`The bundle’s user_config key "${key.slice(0, 100)}" is not a plain name (letters, digits, "_", "-", ".").`);
    if (!o.sensitive) continue;
    if (commandLineStrings(cfg).some((s) => refersTo(s, key))) throw new BundleError(`The bundle puts the secret "${key}" on the command line, where it could not be kept out of the config file.`);
  }
  const mine = forPlatform(cfg);
  const fixed: CatalogFixedValue[] = [...mine.args.map((a) => ({ kind: 'package_argument' as const, name: null, value: a })), ...Object.entries(mine.env).map(([name, value]) => ({ kind: 'env' as const, name, value }))];
  // Read from the manifest as written: older manifest versions' schemas do not carry `_meta`.
  const sandboxNeeds = readDeclaredNeeds((json as { _meta?: unknown })._meta);
  return { manifest, entries, fields: userConfig.map(([k, o]) => fieldOf(k, o)), command: cfg.command, fixed, sandboxNeeds };
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
      await fs.writeFile(target, e.data, { flag: 'wx', mode: e.mode !== null && e.mode & 0o111 ? 0o700 : 0o600 });
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
      if (f.required && f.default === null) throw new CatalogInputError(`${f.label} is required.`, f.id, { problem: 'required', label: f.label });
      continue;
    }
    const o = b.manifest.user_config![key]!;
    if (f.format === 'number') {
      const n = Number(list[0]);
      const bounded = o.min !== undefined || o.max !== undefined;
      if (!Number.isFinite(n) || (o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max))
        throw new CatalogInputError(`${f.label} must be a number${bounded ? ` between ${o.min ?? '…'} and ${o.max ?? '…'}` : ''}.`, f.id, { problem: bounded ? 'range' : 'number', label: f.label, ...(o.min !== undefined ? { min: o.min } : {}), ...(o.max !== undefined ? { max: o.max } : {}) });
      out[key] = n;
    } else if (f.format === 'boolean') {
      if (list[0] !== 'true' && list[0] !== 'false') throw new CatalogInputError(`${f.label} must be true or false.`, f.id, { problem: 'boolean', label: f.label });
      out[key] = list[0] === 'true';
    } else out[key] = f.repeated ? list : list[0]!;
  }
  return out;
}

/** A user_config value as a placeholder's value: lists stay lists, booleans `true`/`false`, numbers as written. */
function asVariable(v: unknown): string | string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

/**
 * The server config of an unpacked bundle: `mcp_config` for this platform with its placeholders
 * filled in one pass (./bundle-vars.ts) — the bundle's folder, the user's folders, the answers
 * (defaults where none was given; `${HOME}`-style folders inside them are filled too). Arguments
 * that stay unfilled (an optional answer not given) are left out, as are such env vars.
 * @throws CatalogInputError, BundleError
 */
export async function bundleConfig(b: InspectedBundle, dir: string, values: FieldValues): Promise<ServerInput> {
  const home = os.homedir();
  const system: BundleVariables = new Map<string, string | string[]>([
    ['__dirname', dir],
    ['pathSeparator', path.sep],
    ['/', path.sep],
    ['HOME', home],
    ['DESKTOP', path.join(home, 'Desktop')],
    ['DOCUMENTS', path.join(home, 'Documents')],
    ['DOWNLOADS', path.join(home, 'Downloads')],
  ]);
  const vars: BundleVariables = new Map(system);
  const answers = userConfigValues(b, values);
  for (const [key, o] of Object.entries(b.manifest.user_config ?? {})) {
    const v = Object.prototype.hasOwnProperty.call(answers, key) ? answers[key] : o.default;
    if (v === undefined) continue;
    // Folders in a value (`${HOME}/notes`) are filled; a user_config placeholder in it is not.
    const filled = asVariable(v);
    vars.set(`user_config.${key}`, Array.isArray(filled) ? filled.map((s) => fillString(s, system).text) : fillString(filled, system).text);
  }
  const cfg = b.manifest.server.mcp_config;
  if (!cfg) throw new BundleError('The bundle’s server could not be configured with these answers.');
  const mine = forPlatform(cfg);
  const command = fillString(mine.command, vars);
  if (command.unfilled) throw new BundleError('The bundle’s start command has a variable that could not be filled.');
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(mine.env)) {
    const r = fillString(raw, vars);
    if (!r.unfilled) env[name] = r.text;
  }
  const sandbox = settingsFromNeeds(b.sandboxNeeds);
  return { type: 'local', command: [command.text, ...fillArgs(mine.args, vars)], env, ...(sandbox ? { sandbox } : {}) };
}
