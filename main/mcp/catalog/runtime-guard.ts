/**
 * The server catalog's one job here: keep a registry entry from redirecting the runtime that
 * fetches and starts its package (docs/ARCHITECTURE.md "Server catalog", its point "The catalog
 * cannot redirect package managers"). Pure, no I/O.
 *
 * What the option shows (`npm foo@1.2.3`, `pypi bar==2.0`, `oci docker.io/x/y:1`) must be what
 * runs. An entry can say otherwise in two places, and both are checked:
 * - Environment variables the entry fixes (a `value`, a `default`, `choices`): the runtime reads
 *   its configuration from the environment (`npm_config_registry`, `UV_INDEX_URL`, `DOCKER_HOST`,
 *   proxies, `NODE_OPTIONS`, `PYTHONPATH`, `LD_PRELOAD`, `PATH`, `HOME`, …). Those names are
 *   refused whatever their case; a value the user types in is theirs to give.
 * - Runtime arguments (the ones placed before the package, which npx/uvx/docker read): npx treats
 *   every `--key value` as npm configuration and every positional as the package to run, so no
 *   list of bad flags can be complete. Each runtime therefore has an allow-list of flags; a
 *   positional runtime argument is always refused, and the fixed values of allowed flags are
 *   checked (docker: a bind mount's source must be the user's answer, no host network, …).
 * Package arguments go to the package itself, after its name, but a fixed package-source flag
 * (`--registry`, `--index-url`, …) is refused there too: some servers hand it to a package manager.
 */
import type { NotInstallableReason } from '../../../preload/contract/index.js';
import type { RegistryArgument, RegistryInput, RegistryPackage } from './schema.js';

/** The runtimes a package runs with. */
export type PackageRuntime = 'npx' | 'uvx' | 'docker';

/** Names the runtimes (npm/npx, node, uv/uvx, pip, python, docker, git, the loader, the shell) read as configuration. */
const RUNTIME_ENV = new Set([
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_REPL_EXTERNAL_MODULE', 'NODE_ICU_DATA',
  'PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP', 'PYTHONUSERBASE', 'PYTHONEXECUTABLE', 'PYTHONPLATLIBDIR', 'VIRTUAL_ENV', 'CONDA_PREFIX',
  'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'FTP_PROXY',
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
  'PATH', 'PATHEXT', 'HOME', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME',
  'BASH_ENV', 'ENV', 'SHELL', 'COMSPEC',
]);
const RUNTIME_ENV_PREFIXES = ['NPM_CONFIG_', 'COREPACK_', 'PIP_', 'UV_', 'DOCKER_', 'GIT_', 'LD_', 'DYLD_'];

/** Whether an environment variable is read by a runtime as its configuration (any case: npm and Windows ignore it). */
export function isRuntimeEnv(name: string): boolean {
  const n = name.toUpperCase();
  return RUNTIME_ENV.has(n) || RUNTIME_ENV_PREFIXES.some((p) => n.startsWith(p));
}

/** Flags that send a package manager to another source, refused as fixed package arguments. */
const SOURCE_FLAGS = new Set(['--registry', '--index-url', '-i', '--extra-index-url', '--default-index', '--index', '--find-links', '--trusted-host', '--allow-insecure-host', '--userconfig', '--globalconfig', '--prefix', '--cafile', '--ca', '--proxy', '--https-proxy', '--script-shell', '--node-options']);

/** Whether an argument text is a package-source flag (`--registry`, `--Registry=…`; short flags by their exact case). */
function isSourceFlag(s: string): boolean {
  const flag = s.split('=')[0]!;
  return SOURCE_FLAGS.has(flag.startsWith('--') ? flag.toLowerCase() : flag);
}

/** Whether a part of a value is `{name}` of a declared variable: the user's answer fills it in. */
type IsAnswer = (part: string) => boolean;
/** A check of one fixed value of a flag. */
type ValueCheck = (v: string, answer: IsAnswer) => boolean;

const notOption: ValueCheck = (v) => v !== '' && !v.startsWith('-');
const oneOf = (...allowed: string[]): ValueCheck => (v) => allowed.includes(v);
const VOLUME_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** A bind mount's source is the user's answer; a volume is named; nothing else (no `volume-opt`). */
function dockerMount(v: string, answer: IsAnswer): boolean {
  const opts = new Map<string, string>();
  for (const part of v.split(',')) {
    const [k, ...rest] = part.split('=');
    if (!k || opts.has(k)) return false;
    opts.set(k, rest.join('='));
  }
  const allowed = ['type', 'src', 'source', 'dst', 'destination', 'target', 'readonly', 'ro', 'bind-propagation', 'consistency', 'tmpfs-size', 'tmpfs-mode', 'volume-nocopy'];
  if ([...opts.keys()].some((k) => !allowed.includes(k))) return false;
  const type = opts.get('type') ?? 'volume';
  const src = opts.get('src') ?? opts.get('source');
  if (type === 'bind') return src !== undefined && answer(src);
  if (type === 'volume') return src === undefined || answer(src) || VOLUME_NAME.test(src);
  return type === 'tmpfs' && src === undefined;
}

/** `-v SRC:DST[:OPTS]`: the source is the user's answer or a named volume. */
function dockerVolume(v: string, answer: IsAnswer): boolean {
  const [src, dst, opts, ...more] = v.split(':');
  if (!src || !dst || more.length) return false;
  if (!answer(src) && !VOLUME_NAME.test(src)) return false;
  return (dst.startsWith('/') || answer(dst)) && (opts === undefined || opts.split(',').every((o) => ['ro', 'rw', 'z', 'Z', 'nocopy'].includes(o)));
}

/** `-p 127.0.0.1:HOST:CONTAINER[/proto]`: published on loopback only; each port a number or the user's answer. */
const loopbackPublish: ValueCheck = (v, answer) => {
  const m = /^127\.0\.0\.1:([^:]+):([^:/]+)(\/(tcp|udp))?$/.exec(v);
  return !!m && [m[1]!, m[2]!].every((p) => /^\d{1,5}$/.test(p) || answer(p));
};
const pythonVersion: ValueCheck = (v, answer) => /^((cpython|pypy)-?)?\d+(\.\d+){0,2}$/.test(v) || answer(v);
const envAssignment: ValueCheck = (v) => /^[A-Za-z_][A-Za-z0-9_]*(=[^]*)?$/.test(v);

/** A runtime flag: `flag` takes no value; otherwise each fixed value must pass `value`. */
type FlagRule = { kind: 'flag' } | { kind: 'value'; value: ValueCheck };
const FLAG: FlagRule = { kind: 'flag' };
const value = (check: ValueCheck): FlagRule => ({ kind: 'value', value: check });

/** The runtime flags an entry may set, by runtime (everything else is refused). */
const RUNTIME_FLAGS: Record<PackageRuntime, Record<string, FlagRule>> = {
  // npm reads any other `--key value` as configuration (registry, userconfig, prefix, node-options…).
  npx: { '-y': FLAG, '--yes': FLAG, '-q': FLAG, '--quiet': FLAG, '--silent': FLAG },
  uvx: {
    '-q': FLAG, '--quiet': FLAG, '--isolated': FLAG, '--no-cache': FLAG, '-n': FLAG, '--refresh': FLAG, '--offline': FLAG, '--no-progress': FLAG, '--no-config': FLAG, '--no-python-downloads': FLAG, '--no-build': FLAG,
    '--python': value(pythonVersion),
    '-p': value(pythonVersion),
    '--python-preference': value(oneOf('only-managed', 'managed', 'system', 'only-system')),
  },
  docker: {
    '-i': FLAG, '--interactive': FLAG, '-t': FLAG, '--tty': FLAG, '--rm': FLAG, '--init': FLAG, '--read-only': FLAG,
    '-e': value(envAssignment),
    '--env': value(envAssignment),
    '-v': value(dockerVolume),
    '--volume': value(dockerVolume),
    '--mount': value(dockerMount),
    '--network': value(oneOf('none', 'bridge')),
    '--net': value(oneOf('none', 'bridge')),
    '-p': value(loopbackPublish),
    '--publish': value(loopbackPublish),
    '--pull': value(oneOf('always', 'missing', 'never')),
    '-w': value(notOption), '--workdir': value(notOption), '--name': value(notOption), '-l': value(notOption), '--label': value(notOption),
    '-u': value(notOption), '--user': value(notOption), '-h': value(notOption), '--hostname': value(notOption), '--platform': value(notOption),
    '-m': value(notOption), '--memory': value(notOption), '--memory-swap': value(notOption), '--cpus': value(notOption), '--pids-limit': value(notOption),
    '--shm-size': value(notOption), '--stop-timeout': value(notOption), '--stop-signal': value(notOption), '--tmpfs': value(notOption),
  },
};

/**
 * The values an input fixes, as they would be used: its `value` (a template; each `{variable}`
 * left as the user's answer, or replaced by the variable's default, or by each of its choices),
 * its `default`, and its `choices`. Empty when everything comes from the user.
 */
export function fixedValues(i: RegistryInput & { variables?: Record<string, RegistryInput> | undefined }): string[] {
  const out = new Set<string>();
  if (i.value !== undefined) {
    const vars = Object.entries(i.variables ?? {});
    const fill = (pick: (name: string, v: RegistryInput) => string | undefined): string =>
      i.value!.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
        const v = vars.find(([n]) => n === name)?.[1];
        return (v && pick(name, v)) ?? whole;
      });
    out.add(fill(() => undefined));
    out.add(fill((_, v) => v.default));
    for (const [name, v] of vars) for (const c of v.choices ?? []) out.add(fill((n) => (n === name ? c : undefined)));
  }
  if (i.default !== undefined) out.add(i.default);
  for (const c of i.choices ?? []) out.add(c);
  return [...out];
}

/** Why a runtime argument is refused, or null. */
function runtimeArgumentRefused(runtime: PackageRuntime, a: RegistryArgument): NotInstallableReason | null {
  if (a.type === 'positional') return { code: 'runtime_argument_refused', runtime, argument: a.value ?? a.default ?? a.valueHint ?? '(positional)' };
  const rule = Object.prototype.hasOwnProperty.call(RUNTIME_FLAGS[runtime], a.name) ? RUNTIME_FLAGS[runtime][a.name]! : null;
  if (!rule) return { code: 'runtime_argument_refused', runtime, argument: a.name };
  const alone = (a.format ?? 'string') === 'boolean' && a.value === undefined;
  // A flag takes no value (one after it would be read as the package); a valued flag always takes one.
  if (rule.kind === 'flag') return alone ? null : { code: 'runtime_argument_refused', runtime, argument: `${a.name} ${a.value ?? a.default ?? ''}`.trim() };
  if (alone) return { code: 'runtime_argument_refused', runtime, argument: a.name };
  const declared = new Set(Object.keys(a.variables ?? {}));
  const answer: IsAnswer = (part) => /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(part) && declared.has(part.slice(1, -1));
  const bad = fixedValues(a).find((v) => !rule.value(v, answer));
  return bad === undefined ? null : { code: 'runtime_argument_refused', runtime, argument: `${a.name} ${bad}` };
}

/** Why a package argument is refused (a fixed package-source flag), or null. */
function packageArgumentRefused(a: RegistryArgument): NotInstallableReason | null {
  const fixed = fixedValues(a);
  if (a.type === 'named' && isSourceFlag(a.name) && (fixed.length > 0 || a.name.includes('='))) return { code: 'package_argument_refused', argument: fixed.length ? `${a.name} ${fixed[0]}` : a.name };
  const bad = fixed.find(isSourceFlag);
  return bad === undefined ? null : { code: 'package_argument_refused', argument: bad };
}

/**
 * Why a package's environment or arguments would make its runtime fetch or run something else
 * than the package shown (see the module comment), or null.
 */
export function whyRedirects(p: RegistryPackage, runtime: PackageRuntime): NotInstallableReason | null {
  for (const e of p.environmentVariables ?? []) if (isRuntimeEnv(e.name) && fixedValues(e).length > 0) return { code: 'runtime_env_refused', name: e.name };
  for (const a of p.runtimeArguments ?? []) {
    const why = runtimeArgumentRefused(runtime, a);
    if (why) return why;
  }
  for (const a of p.packageArguments ?? []) {
    const why = packageArgumentRefused(a);
    if (why) return why;
  }
  return null;
}
