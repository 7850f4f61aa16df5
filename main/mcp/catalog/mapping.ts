/**
 * The server catalog's one job here: turn a validated `server.json` (./schema.ts) and the user's
 * answers into a server config — pure, no I/O (docs/ARCHITECTURE.md "Server catalog").
 *
 * - Packages: npm → `npx -y <id>@<version>`, pypi → `uvx <id>==<version>`, oci → `docker run -i
 *   --rm … <image>`, honouring `runtimeArguments`, `packageArguments` and `environmentVariables`.
 *   Every argument value is its own argv entry (the host spawns without a shell).
 * - Remotes: streamable-http → `http`, sse → `sse`; `{variables}` of the URL are filled from the
 *   user's answers only, and the result must be https (or http to loopback).
 * - Env vars and headers become the config's `env` / `headers`, whose values the config store
 *   keeps in the secret store. A secret asked for on the command line cannot be kept secret, so
 *   such an option is not installable.
 * - An entry cannot redirect its runtime (./runtime-guard.ts), and every value it fixes is listed
 *   on its option (`fixed`) for the install form to show.
 */
import { envNameSchema, headerNameSchema, type CatalogField, type CatalogFixedValue, type CatalogInputProblem, type CatalogOption, type ErrorFact, type ServerInput } from '../../../preload/contract/index.js';
import { isHttpsOrLoopbackHttp } from '../../../preload/contract/rules/index.js';
import { NotInstallableError, reason, type NotInstallableReason } from './reasons.js';
import { whyRedirects, type PackageRuntime } from './runtime-guard.js';
import { serverJsonNeeds, settingsFromNeeds } from '../sandbox/declared-needs.js';
import type { KeyValueInput, RegistryArgument, RegistryInput, RegistryPackage, RegistryRemote, ServerJson } from './schema.js';

/** The user's answers, by field id; a repeated field takes a list. */
export type FieldValues = Record<string, string | string[]>;

/** What a refused answer is about, for the window (the contract's `catalog_input` fact, less its kind). */
export interface CatalogInputFacts {
  problem: CatalogInputProblem;
  label?: string;
  choices?: string[];
  min?: number;
  max?: number;
}

/**
 * Thrown when the answers do not fit the fields; `field` is the offending field id, `fact` why,
 * for the window to word (the message is English, for logs).
 */
export class CatalogInputError extends Error {
  override name = 'CatalogInputError';
  readonly fact: Extract<ErrorFact, { kind: 'catalog_input' }>;
  constructor(
    message: string,
    readonly field: string | undefined,
    facts: CatalogInputFacts,
  ) {
    super(message);
    this.fact = { kind: 'catalog_input', problem: facts.problem, label: facts.label?.slice(0, 200) ?? null, choices: (facts.choices ?? []).slice(0, 50).map((c) => c.slice(0, 200)), min: facts.min ?? null, max: facts.max ?? null };
  }
}

/** The result of {@link buildConfig}. */
export interface BuiltConfig {
  /** What `servers.add` takes. */
  input: ServerInput;
  /** The answers worth remembering for an update: non-secret command-line and URL answers. */
  remembered: FieldValues;
  /** The label of each remembered field (a flag, value hint or variable name), by field id. */
  labels: Record<string, string>;
  /** The program that must be on PATH (`npx`, `uvx`, `docker`), or null for a remote. */
  runtime: string | null;
}

const DEFAULT_REGISTRIES: Record<string, string[]> = {
  npm: ['https://registry.npmjs.org'],
  pypi: ['https://pypi.org'],
  oci: ['https://docker.io', 'https://registry-1.docker.io', 'https://index.docker.io'],
};

const RUNTIMES: Record<string, PackageRuntime> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

/** Package identifiers by type; none may start with `-` (it would read as an option). */
const IDENTIFIERS: Record<string, RegExp> = {
  npm: /^(@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/,
  pypi: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
  oci: /^[a-z0-9][a-z0-9._/-]*(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(@sha256:[a-f0-9]{64})?$/,
};
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;

function field(id: string, kind: CatalogField['kind'], label: string, i: RegistryInput, repeated = false): CatalogField {
  return {
    id,
    kind,
    label,
    description: i.description ?? null,
    required: i.isRequired === true,
    secret: i.isSecret === true,
    format: i.format ?? 'string',
    default: i.default ?? null,
    placeholder: i.placeholder ?? null,
    choices: i.choices && i.choices.length ? [...i.choices] : null,
    repeated,
  };
}

/** Fields for the `{variables}` of an input with a fixed value. */
function variableFields(owner: string, i: { variables?: Record<string, RegistryInput> | undefined }, kind: CatalogField['kind'] = 'variable'): CatalogField[] {
  return Object.entries(i.variables ?? {}).map(([name, v]) => field(`${owner}/${name}`, kind, name, v));
}

function argLabel(a: RegistryArgument): string {
  return a.type === 'named' ? a.name : (a.valueHint ?? 'argument');
}

/** The fields of one argument list (`arg:runtime:N` / `arg:package:N`). */
function argumentFields(list: RegistryArgument[] | undefined, where: 'runtime' | 'package'): CatalogField[] {
  const out: CatalogField[] = [];
  (list ?? []).forEach((a, n) => {
    const id = `arg:${where}:${n}`;
    if (a.value !== undefined) out.push(...variableFields(id, a));
    else out.push(field(id, 'argument', argLabel(a), a, a.isRepeated === true));
  });
  return out;
}

function keyValueFields(list: KeyValueInput[] | undefined, kind: 'env' | 'header'): CatalogField[] {
  const out: CatalogField[] = [];
  for (const kv of list ?? []) {
    const id = `${kind}:${kv.name}`;
    if (kv.value !== undefined) out.push(...variableFields(id, kv));
    else out.push(field(id, kind, kv.name, kv));
  }
  return out;
}

/** An MCP Bundle package: downloaded from an https URL (or http on loopback) and checked against its `fileSha256`. */
function whyNotBundle(p: RegistryPackage): NotInstallableReason | null {
  if (!p.fileSha256) return { code: 'bundle_no_sha256' };
  let u: URL;
  try {
    u = new URL(p.identifier);
  } catch {
    return { code: 'bundle_url_invalid' };
  }
  if (!isHttpsOrLoopbackHttp(u) || u.username || u.password) return { code: 'bundle_not_https' };
  if (p.transport.type !== 'stdio') return { code: 'bundle_not_stdio', transport: p.transport.type };
  return null;
}

function whyNotPackageRaw(p: RegistryPackage): NotInstallableReason | null {
  const runtime = RUNTIMES[p.registryType];
  if (p.registryType === 'mcpb') return whyNotBundle(p);
  if (!runtime) return { code: 'package_type_unsupported', registry_type: p.registryType };
  if (p.transport.type !== 'stdio') return { code: 'package_not_stdio', transport: p.transport.type };
  if (p.registryBaseUrl && !DEFAULT_REGISTRIES[p.registryType]!.includes(p.registryBaseUrl.replace(/\/+$/, ''))) return { code: 'package_registry_unsupported', registry_type: p.registryType, registry_url: p.registryBaseUrl };
  if (!IDENTIFIERS[p.registryType]!.test(p.identifier)) return { code: 'package_name_invalid', registry_type: p.registryType, identifier: p.identifier };
  if (p.version !== undefined && (!VERSION.test(p.version) || p.version === 'latest')) return { code: 'version_inexact', version: p.version };
  if (p.registryType !== 'oci' && p.version === undefined) return { code: 'no_version' };
  const secretArg = [...(p.runtimeArguments ?? []), ...(p.packageArguments ?? [])].find((a) => a.isSecret || Object.values(a.variables ?? {}).some((v) => v.isSecret));
  if (secretArg) return { code: 'secret_argument', label: argLabel(secretArg) };
  for (const e of p.environmentVariables ?? []) if (!envNameSchema.safeParse(e.name).success) return { code: 'env_name_invalid', name: e.name };
  return whyRedirects(p, runtime);
}

/** Why a package cannot be installed (strings cut, see ./reasons.ts), or null. */
function whyNotPackage(p: RegistryPackage): NotInstallableReason | null {
  const why = whyNotPackageRaw(p);
  return why && reason(why);
}

/** Why a remote cannot be installed (strings cut, see ./reasons.ts), or null. */
function whyNotRemote(r: RegistryRemote): NotInstallableReason | null {
  const secretVar = Object.entries(r.variables ?? {}).find(([, v]) => v.isSecret);
  if (secretVar) return reason({ code: 'secret_url_variable', name: secretVar[0] });
  for (const h of r.headers ?? []) if (!headerNameSchema.safeParse(h.name).success) return reason({ code: 'header_name_invalid', name: h.name });
  return null;
}

/** The arguments an entry fixes (those with a `value`), as the install form lists them. */
function fixedArguments(list: RegistryArgument[] | undefined, kind: CatalogFixedValue['kind']): CatalogFixedValue[] {
  return (list ?? []).filter((a) => a.value !== undefined).map((a) => ({ kind, name: a.type === 'named' ? a.name : null, value: a.value! }));
}

/** The env vars or headers an entry fixes (those with a `value`). */
function fixedKeyValues(list: KeyValueInput[] | undefined, kind: 'env' | 'header'): CatalogFixedValue[] {
  return (list ?? []).filter((kv) => kv.value !== undefined).map((kv) => ({ kind, name: kv.name, value: kv.value! }));
}

function packageLabel(p: RegistryPackage): string {
  return `${p.registryType} ${p.identifier}${p.version ? `@${p.version}` : ''}`;
}

/**
 * The ways an entry can be installed: one option per package (`package:N`) and remote
 * (`remote:N`), each installable with the fields to ask for, or not with the reason.
 */
export function installOptions(server: ServerJson): CatalogOption[] {
  const out: CatalogOption[] = [];
  (server.packages ?? []).forEach((p, n) => {
    const base = { id: `package:${n}`, kind: p.registryType, label: packageLabel(p), transport: p.transport.type };
    const why = whyNotPackage(p);
    if (why) return out.push({ ...base, installable: false, reason: why });
    // A bundle's own questions (its user_config) are known once it is downloaded and checked.
    if (p.registryType === 'mcpb') return out.push({ ...base, label: `mcpb ${p.identifier}`, installable: true, runtime: null, fields: [], fixed: [], sandbox_needs: { kind: 'none' } });
    const fields = [...argumentFields(p.runtimeArguments, 'runtime'), ...argumentFields(p.packageArguments, 'package'), ...keyValueFields(p.environmentVariables, 'env')];
    const fixed = [...fixedArguments(p.runtimeArguments, 'runtime_argument'), ...fixedArguments(p.packageArguments, 'package_argument'), ...fixedKeyValues(p.environmentVariables, 'env')];
    out.push({ ...base, installable: true, runtime: RUNTIMES[p.registryType]!, fields, fixed, sandbox_needs: serverJsonNeeds(server) });
  });
  (server.remotes ?? []).forEach((r, n) => {
    const base = { id: `remote:${n}`, kind: 'remote', label: `${r.type} ${r.url}`, transport: r.type };
    const why = whyNotRemote(r);
    if (why) return out.push({ ...base, installable: false, reason: why });
    const fields = [...variableFields('url', r, 'url_variable'), ...keyValueFields(r.headers, 'header')];
    out.push({ ...base, installable: true, runtime: null, fields, fixed: fixedKeyValues(r.headers, 'header'), sandbox_needs: { kind: 'none' } });
  });
  return out;
}

/** Reads and checks answers against fields, remembering the non-secret ones. */
class Answers {
  readonly remembered: FieldValues = {};
  readonly labels: Record<string, string> = {};
  constructor(private readonly values: FieldValues) {}

  /** The values of a field (empty list: not given and no default). @throws CatalogInputError */
  many(f: CatalogField): string[] {
    const raw = Object.prototype.hasOwnProperty.call(this.values, f.id) ? this.values[f.id] : undefined;
    let list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v) => v !== '');
    if (!f.repeated && list.length > 1) throw new CatalogInputError(`${f.label} takes one value.`, f.id, { problem: 'one_value', label: f.label });
    if (list.length === 0 && f.default !== null) list = [f.default];
    if (list.length === 0 && f.required) throw new CatalogInputError(`${f.label} is required.`, f.id, { problem: 'required', label: f.label });
    for (const v of list) this.check(f, v);
    // Env and header values are secrets of the config (kept in the secret store), so only
    // command-line and URL answers are remembered for an update.
    const rememberable = f.id.startsWith('arg:') || f.id.startsWith('url/');
    if (!f.secret && rememberable && list.length) {
      this.remembered[f.id] = f.repeated ? list : list[0]!;
      this.labels[f.id] = f.label;
    }
    return list;
  }

  one(f: CatalogField): string | undefined {
    return this.many(f)[0];
  }

  private check(f: CatalogField, v: string): void {
    const label = f.label;
    if (f.choices && !f.choices.includes(v)) throw new CatalogInputError(`${label} must be one of: ${f.choices.join(', ')}.`, f.id, { problem: 'choice', label, choices: f.choices });
    if (f.format === 'number' && !/^-?\d+(\.\d+)?$/.test(v)) throw new CatalogInputError(`${label} must be a number.`, f.id, { problem: 'number', label });
    if (f.format === 'boolean' && v !== 'true' && v !== 'false') throw new CatalogInputError(`${label} must be true or false.`, f.id, { problem: 'boolean', label });
    if (/[\0\r\n]/.test(v)) throw new CatalogInputError(`${label} must be one line.`, f.id, { problem: 'one_line', label });
  }
}

/** Replace `{name}` by the answer for `owner/name`; unknown names stay as they are (per the format). */
function fill(template: string, owner: string, i: { variables?: Record<string, RegistryInput> | undefined }, answers: Answers): string {
  const vars = i.variables ?? {};
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const v = vars[name];
    if (!v) return whole;
    return answers.one(field(`${owner}/${name}`, 'variable', name, v)) ?? '';
  });
}

function argv(list: RegistryArgument[] | undefined, where: 'runtime' | 'package', answers: Answers): string[] {
  const out: string[] = [];
  (list ?? []).forEach((a, n) => {
    const id = `arg:${where}:${n}`;
    const values = a.value !== undefined ? [fill(a.value, id, a, answers)] : answers.many(field(id, 'argument', argLabel(a), a, a.isRepeated === true));
    for (const v of values) {
      if (a.type === 'positional') out.push(v);
      else if ((a.format ?? 'string') === 'boolean' && a.value === undefined) {
        if (v === 'true') out.push(a.name);
      } else out.push(a.name, v);
    }
  });
  return out;
}

function keyValues(list: KeyValueInput[] | undefined, kind: 'env' | 'header', answers: Answers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list ?? []) {
    const id = `${kind}:${kv.name}`;
    const v = kv.value !== undefined ? fill(kv.value, id, kv, answers) : answers.one(field(id, kind, kv.name, kv));
    if (v !== undefined && v !== '') out[kv.name] = v;
  }
  return out;
}

/**
 * Check a filled remote URL: absolute, https (or http to loopback), no credentials, nothing left
 * unfilled. @throws CatalogInputError
 */
export function checkRemoteUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CatalogInputError('The server URL is not a valid URL after filling in its variables.', 'url', { problem: 'url_invalid' });
  }
  if (/[{}\s]/.test(url)) throw new CatalogInputError('The server URL still has unfilled variables.', 'url', { problem: 'url_unfilled' });
  if (u.username || u.password) throw new CatalogInputError('The server URL must not carry a user name or password.', 'url', { problem: 'url_credentials' });
  if (isHttpsOrLoopbackHttp(u)) return u.href;
  throw new CatalogInputError('Only https URLs (or http to this computer) are accepted for a remote server.', 'url', { problem: 'url_scheme' });
}

/**
 * Build the config of option `optionId` of `server` from the user's answers.
 * @throws NotInstallableError for an option that cannot be installed (or does not exist);
 *   CatalogInputError (with the field id) for an answer that is missing or does not fit.
 */
export function buildConfig(server: ServerJson, optionId: string, values: FieldValues): BuiltConfig {
  const m = /^(package|remote):(\d+)$/.exec(optionId);
  const index = m ? Number(m[2]) : -1;
  const answers = new Answers(values);
  if (m?.[1] === 'package') {
    const p = server.packages?.[index];
    if (!p) throw new NotInstallableError({ code: 'no_such_option', option: optionId });
    const why = whyNotPackage(p);
    if (why) throw new NotInstallableError(why);
    if (p.registryType === 'mcpb') throw new NotInstallableError({ code: 'bundle_download_first' });
    const runtime = RUNTIMES[p.registryType]!;
    const rt = argv(p.runtimeArguments, 'runtime', answers);
    const pk = argv(p.packageArguments, 'package', answers);
    const env = keyValues(p.environmentVariables, 'env', answers);
    let command: string[];
    if (p.registryType === 'npm') command = ['npx', ...rt, '-y', `${p.identifier}@${p.version}`, ...pk];
    else if (p.registryType === 'pypi') command = ['uvx', ...rt, `${p.identifier}==${p.version}`, ...pk];
    else {
      // The image reads its environment from docker's own (`-e NAME` without a value), so
      // values stay out of the command line.
      const tagged = p.version && !/[:@]/.test(p.identifier.split('/').pop()!) ? `${p.identifier}:${p.version}` : p.identifier;
      command = ['docker', 'run', '-i', '--rm', ...rt, ...Object.keys(env).flatMap((k) => ['-e', k]), tagged, ...pk];
    }
    // Declared sandbox needs fill the new server's settings; the install form showed them.
    const sandbox = settingsFromNeeds(serverJsonNeeds(server));
    return { input: { type: 'local', command, env, ...(sandbox ? { sandbox } : {}) }, remembered: answers.remembered, labels: answers.labels, runtime };
  }
  if (m?.[1] === 'remote') {
    const r = server.remotes?.[index];
    if (!r) throw new NotInstallableError({ code: 'no_such_option', option: optionId });
    const why = whyNotRemote(r);
    if (why) throw new NotInstallableError(why);
    const url = checkRemoteUrl(fill(r.url, 'url', r, answers));
    const headers = keyValues(r.headers, 'header', answers);
    return { input: { type: r.type === 'sse' ? 'sse' : 'http', url, headers }, remembered: answers.remembered, labels: answers.labels, runtime: null };
  }
  throw new NotInstallableError({ code: 'no_such_option', option: optionId.slice(0, 64) });
}
