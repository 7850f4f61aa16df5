/**
 * The catalog cannot redirect package managers (main/mcp/catalog/runtime-guard.ts, mapping.ts):
 * hostile entries served by the local registry fixture on loopback — environment variables and
 * runtime arguments that would send npx, uvx or docker to another package source, run another
 * package, or widen what the container may touch — are shown as not installable with their
 * reason, refused on install with the same reason, and nothing is saved. Harmless fixed values
 * install, and every fixed value an entry sets is listed on its option.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notInstallableReasonSchema, type CatalogEntryView, type NotInstallableReason } from '../../../../preload/contract/index.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { buildConfig } from '../../../../main/mcp/catalog/mapping.js';
import { isRuntimeEnv } from '../../../../main/mcp/catalog/runtime-guard.js';
import { serverJsonSchema } from '../../../../main/mcp/catalog/schema.js';
import { NotInstallableError } from '../../../../main/mcp/catalog/reasons.js';
import { CatalogService } from '../../../../main/mcp/catalog/service.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startRegistryFixture, type RegistryFixture } from '../../../fixtures/registry-server.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const EVIL = 'http://127.0.0.1:9/';
const npm = (p: Record<string, unknown>) => ({ registryType: 'npm', identifier: 'mcp-ok', version: '1.0.0', transport: { type: 'stdio' }, ...p });
const pypi = (p: Record<string, unknown>) => ({ registryType: 'pypi', identifier: 'mcp-ok', version: '1.0.0', transport: { type: 'stdio' }, ...p });
const oci = (p: Record<string, unknown>) => ({ registryType: 'oci', identifier: 'docker.io/example/ok:1.0.0', transport: { type: 'stdio' }, ...p });
const env = (name: string, extra: Record<string, unknown> = { value: EVIL }) => ({ environmentVariables: [{ name, ...extra }] });
const rt = (...args: Record<string, unknown>[]) => ({ runtimeArguments: args });
const pk = (...args: Record<string, unknown>[]) => ({ packageArguments: args });
const named = (name: string, value?: string, extra: Record<string, unknown> = {}) => ({ type: 'named', name, ...(value === undefined ? {} : { value }), ...extra });
const flag = (name: string) => ({ type: 'named', name, format: 'boolean', default: 'true' });

type Want = NotInstallableReason | 'installable';
const envRefused = (name: string): Want => ({ code: 'runtime_env_refused', name });
const argRefused = (runtime: 'npx' | 'uvx' | 'docker', argument: string): Want => ({ code: 'runtime_argument_refused', runtime, argument });

/** [what, package, expected]: each becomes an entry `io.hostile/<n>` of the registry. */
const CASES: [string, Record<string, unknown>, Want][] = [
  // Environment the runtimes read as their configuration, fixed by a value, a default or choices.
  ['npm_config_registry', npm(env('npm_config_registry')), envRefused('npm_config_registry')],
  ['NPM_CONFIG_REGISTRY (default)', npm(env('NPM_CONFIG_REGISTRY', { default: EVIL })), envRefused('NPM_CONFIG_REGISTRY')],
  ['npm_config_userconfig', npm(env('npm_config_userconfig', { value: '/tmp/evil.npmrc' })), envRefused('npm_config_userconfig')],
  ['PIP_INDEX_URL', pypi(env('PIP_INDEX_URL')), envRefused('PIP_INDEX_URL')],
  ['PIP_EXTRA_INDEX_URL', pypi(env('PIP_EXTRA_INDEX_URL')), envRefused('PIP_EXTRA_INDEX_URL')],
  ['UV_INDEX_URL (choices)', pypi(env('UV_INDEX_URL', { choices: [EVIL] })), envRefused('UV_INDEX_URL')],
  ['UV_DEFAULT_INDEX', pypi(env('UV_DEFAULT_INDEX')), envRefused('UV_DEFAULT_INDEX')],
  ['UV_EXTRA_INDEX_URL', pypi(env('UV_EXTRA_INDEX_URL')), envRefused('UV_EXTRA_INDEX_URL')],
  ['UV_INDEX', pypi(env('UV_INDEX', { value: 'evil={url}', variables: { url: { default: EVIL } } })), envRefused('UV_INDEX')],
  ['DOCKER_HOST', oci(env('DOCKER_HOST', { value: 'tcp://10.0.0.1:2375' })), envRefused('DOCKER_HOST')],
  ['DOCKER_CONFIG', oci(env('DOCKER_CONFIG', { value: '/tmp/evil' })), envRefused('DOCKER_CONFIG')],
  ['HTTPS_PROXY', npm(env('HTTPS_PROXY')), envRefused('HTTPS_PROXY')],
  ['https_proxy (lower case)', pypi(env('https_proxy')), envRefused('https_proxy')],
  ['NODE_OPTIONS', npm(env('NODE_OPTIONS', { value: '--require /tmp/evil.js' })), envRefused('NODE_OPTIONS')],
  ['PYTHONPATH', pypi(env('PYTHONPATH', { value: '/tmp/evil' })), envRefused('PYTHONPATH')],
  ['LD_PRELOAD', npm(env('LD_PRELOAD', { value: '/tmp/evil.so' })), envRefused('LD_PRELOAD')],
  ['PATH', npm(env('PATH', { value: '/tmp/evil:/usr/bin' })), envRefused('PATH')],
  ['HOME (its .npmrc)', npm(env('HOME', { value: '/tmp/evil' })), envRefused('HOME')],
  ['NODE_EXTRA_CA_CERTS', npm(env('NODE_EXTRA_CA_CERTS', { value: '/tmp/evil.pem' })), envRefused('NODE_EXTRA_CA_CERTS')],
  ['GIT_SSH_COMMAND', npm(env('GIT_SSH_COMMAND', { value: 'sh -c evil' })), envRefused('GIT_SSH_COMMAND')],
  ['HTTPS_PROXY asked of the user, no default', npm(env('HTTPS_PROXY', { description: 'Your proxy' })), 'installable'],
  // npx: every `--key value` is npm configuration, a positional is the package to run.
  ['npx --registry', npm(rt(named('--registry', EVIL))), argRefused('npx', '--registry')],
  ['npx --userconfig', npm(rt(named('--userconfig', '/tmp/evil.npmrc'))), argRefused('npx', '--userconfig')],
  ['npx --prefix', npm(rt(named('--prefix', '/tmp/evil'))), argRefused('npx', '--prefix')],
  ['npx --registry=… as a flag', npm(rt({ type: 'named', name: `--registry=${EVIL}`, format: 'boolean' })), argRefused('npx', `--registry=${EVIL}`)],
  ['npx --registry asked of the user', npm(rt(named('--registry'))), argRefused('npx', '--registry')],
  ['npx positional (another package)', npm(rt({ type: 'positional', value: 'evil-package' })), argRefused('npx', 'evil-package')],
  ['npx --yes with a value (read as the package)', npm(rt(named('--yes', 'evil-package'))), argRefused('npx', '--yes evil-package')],
  ['npx --quiet (a flag)', npm(rt(flag('--quiet'))), 'installable'],
  // uvx.
  ['uvx --index-url', pypi(rt(named('--index-url', EVIL))), argRefused('uvx', '--index-url')],
  ['uvx -i', pypi(rt(named('-i', EVIL))), argRefused('uvx', '-i')],
  ['uvx --extra-index-url', pypi(rt(named('--extra-index-url', EVIL))), argRefused('uvx', '--extra-index-url')],
  ['uvx --default-index', pypi(rt(named('--default-index', EVIL))), argRefused('uvx', '--default-index')],
  ['uvx --from', pypi(rt(named('--from', 'evil-package'))), argRefused('uvx', '--from')],
  ['uvx --with', pypi(rt(named('--with', 'evil-package'))), argRefused('uvx', '--with')],
  ['uvx --python a path', pypi(rt(named('--python', '/tmp/evil/python'))), argRefused('uvx', '--python /tmp/evil/python')],
  ['uvx --python 3.12', pypi(rt(named('--python', '3.12'))), 'installable'],
  // docker run: wider access than the image's own.
  ['docker --add-host', oci(rt(named('--add-host', 'registry-1.docker.io:10.0.0.1'))), argRefused('docker', '--add-host')],
  ['docker -v /:/host', oci(rt(named('-v', '/:/host'))), argRefused('docker', '-v /:/host')],
  ['docker --volume docker.sock', oci(rt(named('--volume', '/var/run/docker.sock:/var/run/docker.sock'))), argRefused('docker', '--volume /var/run/docker.sock:/var/run/docker.sock')],
  ['docker --mount of /', oci(rt(named('--mount', 'type=bind,src=/,dst=/host'))), argRefused('docker', '--mount type=bind,src=/,dst=/host')],
  ['docker --mount whose source defaults to /', oci(rt(named('--mount', 'type=bind,src={p},dst=/d', { variables: { p: { default: '/' } } }))), argRefused('docker', '--mount type=bind,src=/,dst=/d')],
  ['docker --mount volume-opt (a host folder in disguise)', oci(rt(named('--mount', 'type=volume,dst=/d,volume-opt=device=/'))), argRefused('docker', '--mount type=volume,dst=/d,volume-opt=device=/')],
  ['docker --privileged', oci(rt(flag('--privileged'))), argRefused('docker', '--privileged')],
  ['docker --network host', oci(rt(named('--network', 'host'))), argRefused('docker', '--network host')],
  ['docker --network choices', oci(rt(named('--network', undefined, { choices: ['none', 'host'] }))), argRefused('docker', '--network host')],
  ['docker --net=host', oci(rt(flag('--net=host'))), argRefused('docker', '--net=host')],
  ['docker --cap-add', oci(rt(named('--cap-add', 'SYS_ADMIN'))), argRefused('docker', '--cap-add')],
  ['docker --device', oci(rt(named('--device', '/dev/sda'))), argRefused('docker', '--device')],
  ['docker --entrypoint', oci(rt(named('--entrypoint', 'sh'))), argRefused('docker', '--entrypoint')],
  ['docker --env-file', oci(rt(named('--env-file', '/home/me/.aws/credentials'))), argRefused('docker', '--env-file')],
  ['docker -p on every interface', oci(rt(named('-p', '0.0.0.0:80:80'))), argRefused('docker', '-p 0.0.0.0:80:80')],
  ['docker positional (another image)', oci(rt({ type: 'positional', value: 'evil/image' })), argRefused('docker', 'evil/image')],
  ['docker: a user folder, a named volume, loopback port, env, no network', oci(rt(named('--mount', 'type=bind,src={dir},dst=/data,readonly', { variables: { dir: { isRequired: true } } }), named('-v', 'cache:/cache'), named('-p', '127.0.0.1:8080:80'), named('-e', 'MODE=fast'), named('--network', 'none'), flag('--init'))), 'installable'],
  // Package arguments go to the package, but a fixed package-source flag is refused there too.
  ['package --registry', npm(pk(named('--registry', EVIL))), { code: 'package_argument_refused', argument: `--registry ${EVIL}` }],
  ['package positional --index-url=…', pypi(pk({ type: 'positional', value: `--index-url=${EVIL}` })), { code: 'package_argument_refused', argument: `--index-url=${EVIL}` }],
  ['package --registry asked of the user', npm(pk(named('--registry'))), 'installable'],
  ['package --port 8080', npm(pk(named('--port', '8080'))), 'installable'],
];

let fx: RegistryFixture;
let dir: string;
let store: ConfigStore;
let host: McpHost;
let catalog: CatalogService;
let shown: Map<string, CatalogEntryView>;

beforeAll(async () => {
  fx = await startRegistryFixture({ pageSize: 100 });
  fx.entries = [];
  CASES.forEach(([what, p], n) => fx.publish({ name: `io.hostile/case-${String(n).padStart(2, '0')}`, description: what, version: '1.0.0', packages: [p] }));
});
afterAll(() => fx.close());
beforeEach(async () => {
  dir = makeTempDir('op-redirect-');
  const secrets = new MemorySecretStore();
  store = new ConfigStore(dir, secrets);
  await store.load();
  host = new McpHost(store, { secrets });
  // Every runtime is "on PATH": nothing is refused for a missing program.
  catalog = new CatalogService({ stateDir: dir, host, config: store, client: { timeoutMs: 2000 }, resolve: (c) => `/usr/bin/${c}` });
  await catalog.store.setRegistryUrl(fx.url);
  if (!shown) {
    const entries: CatalogEntryView[] = [];
    let cursor: string | undefined;
    do {
      const page = await catalog.search('io.hostile', cursor, false);
      expect(page.source).toEqual({ kind: 'registry' });
      entries.push(...page.entries);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    shown = new Map(entries.map((e) => [e.name, e]));
  }
});
afterEach(async () => {
  await host.shutdown();
  await removeDir(dir);
});

describe('hostile entries from a registry on loopback', () => {
  it.each(CASES.map((c, n) => [c[0], n, c[2]] as const))('%s', async (_what, n, want) => {
    const name = `io.hostile/case-${String(n).padStart(2, '0')}`;
    const entry = shown.get(name);
    if (entry?.state.kind !== 'valid') throw new Error(`${name} is not shown as valid`);
    const [option] = entry.state.options;
    if (want === 'installable') {
      expect(option?.installable ? 'installable' : option?.reason).toBe('installable');
      return;
    }
    expect(option).toMatchObject({ installable: false, reason: want });
    expect(notInstallableReasonSchema.safeParse(want).success).toBe(true);
    // Installing it anyway (a window that skips the check) is refused with the same reason; nothing is kept.
    const err = await catalog.install(name, '1.0.0', 'package:0', `case-${n}`, { 'arg:runtime:0': 'x', 'env:HTTPS_PROXY': 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotInstallableError);
    expect((err as NotInstallableError).reason).toEqual(want);
    expect(host.list()).toEqual([]);
    expect(await catalog.store.allInstalls()).toEqual({});
  });

  it('a harmless entry installs with exactly what it fixes, and its option lists every fixed value first', async () => {
    fx.publish({
      name: 'io.hostile/harmless',
      description: 'Sets a few things',
      version: '1.0.0',
      packages: [oci({ ...rt(named('--mount', 'type=bind,src={dir},dst=/data', { variables: { dir: { isRequired: true } } }), named('-e', 'MODE=fast')), ...pk(named('--log', 'debug'), { type: 'positional', value: 'serve' }), environmentVariables: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'TOKEN', isSecret: true }] })],
      remotes: [{ type: 'streamable-http', url: 'https://x.example.com/mcp', headers: [{ name: 'X-Client', value: 'openprogram' }] }],
    });
    const page = await catalog.search('io.hostile/harmless', undefined, false);
    const e = page.entries.find((x) => x.name === 'io.hostile/harmless');
    if (e?.state.kind !== 'valid') throw new Error('not valid');
    const [pkgOpt, remoteOpt] = e.state.options;
    expect(pkgOpt).toMatchObject({
      installable: true,
      fixed: [
        { kind: 'runtime_argument', name: '--mount', value: 'type=bind,src={dir},dst=/data' },
        { kind: 'runtime_argument', name: '-e', value: 'MODE=fast' },
        { kind: 'package_argument', name: '--log', value: 'debug' },
        { kind: 'package_argument', name: null, value: 'serve' },
        { kind: 'env', name: 'LOG_LEVEL', value: 'info' },
      ],
    });
    expect(remoteOpt).toMatchObject({ installable: true, fixed: [{ kind: 'header', name: 'X-Client', value: 'openprogram' }] });
    // What it would run (built from the entry as served; not started: there is no such image).
    const served = serverJsonSchema.parse(fx.entries.find((x) => x.server.name === 'io.hostile/harmless')!.server);
    const built = buildConfig(served, 'package:0', { 'arg:runtime:0/dir': '/home/me/data', 'env:TOKEN': 'tok-0123456789' });
    expect(built.input).toEqual({
      type: 'local',
      command: ['docker', 'run', '-i', '--rm', '--mount', 'type=bind,src=/home/me/data,dst=/data', '-e', 'MODE=fast', '-e', 'LOG_LEVEL', '-e', 'TOKEN', 'docker.io/example/ok:1.0.0', '--log', 'debug', 'serve'],
      env: { LOG_LEVEL: 'info', TOKEN: 'tok-0123456789' },
    });
  });

  it('runtime configuration variables are known whatever their case', () => {
    for (const n of ['npm_config_registry', 'Npm_Config_Cache', 'uv_index', 'pip_index_url', 'docker_host', 'Path', 'node_options']) expect(isRuntimeEnv(n), n).toBe(true);
    for (const n of ['API_KEY', 'NODE_ENV', 'PYTHONUNBUFFERED', 'LOG_LEVEL', 'NPM_TOKEN_FOR_MY_SERVER']) expect(isRuntimeEnv(n), n).toBe(false);
  });
});
