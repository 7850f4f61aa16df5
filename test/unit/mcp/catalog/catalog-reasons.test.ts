/**
 * Why a catalog option, install or update is refused (main/mcp/catalog/reasons.ts and its users):
 * each reason code from a server.json-shaped input (validated with the registry schema first, as
 * the app does), strings from the registry cut and kept as data, every reason valid against the
 * contract's schema, the reason carried through the real dispatcher to the window's error, and
 * each code rendered in English and Simplified Chinese (renderer/src/i18n/errors.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogRuntimes, notInstallableReasonSchema, REASON_TEXT_MAX, type IpcError, type NotInstallableReason } from '../../../../preload/contract/index.js';
import { buildConfig, installOptions } from '../../../../main/mcp/catalog/mapping.js';
import { NotInstallableError } from '../../../../main/mcp/catalog/reasons.js';
import { checkRuntime, MissingRuntimeError } from '../../../../main/mcp/catalog/runtime.js';
import { updatePatch } from '../../../../main/mcp/catalog/diff.js';
import { serverJsonSchema, type ServerJson } from '../../../../main/mcp/catalog/schema.js';
import { parseServerEntry } from '../../../../main/mcp/config.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher, toIpcError } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { en } from '../../../../renderer/src/i18n/en.js';
import { zhCN } from '../../../../renderer/src/i18n/zh-CN.js';
import { i18next } from '../../../../renderer/src/i18n/index.js';
import { describeError, describeReason } from '../../../../renderer/src/i18n/errors.js';
import { startRegistryFixture, type RegistryFixture } from '../../../fixtures/registry-server.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const doc = (raw: unknown): ServerJson => serverJsonSchema.parse(raw);
const pkg = (p: Record<string, unknown>): ServerJson => doc({ name: 'io.test/x', description: 'x', version: '1.0.0', packages: [{ transport: { type: 'stdio' }, ...p }] });
const remote = (r: Record<string, unknown>): ServerJson => doc({ name: 'io.test/r', description: 'x', version: '1.0.0', remotes: [{ type: 'streamable-http', url: 'https://x.example.com/mcp', ...r }] });
const SHA = 'a'.repeat(64);

/** The reason of the first option of a server.json, or `installable`. */
function optionReason(s: ServerJson): NotInstallableReason | 'installable' {
  const [o] = installOptions(s);
  return o!.installable ? 'installable' : o!.reason;
}
/** The reason a throwing call carries. */
function thrownReason(f: () => unknown): NotInstallableReason {
  try {
    f();
  } catch (err) {
    if (err instanceof NotInstallableError || err instanceof MissingRuntimeError) return err.reason;
    throw err;
  }
  throw new Error('did not throw');
}

const OPTION_CASES: [string, ServerJson, NotInstallableReason][] = [
  ['bundle without a hash', pkg({ registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', version: '1.0.0' }), { code: 'bundle_no_sha256' }],
  ['bundle address not a URL', pkg({ registryType: 'mcpb', identifier: 'x.mcpb', version: '1.0.0', fileSha256: SHA }), { code: 'bundle_url_invalid' }],
  ['bundle over http', pkg({ registryType: 'mcpb', identifier: 'http://example.com/x.mcpb', version: '1.0.0', fileSha256: SHA }), { code: 'bundle_not_https' }],
  ['bundle with its own server', pkg({ registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', version: '1.0.0', fileSha256: SHA, transport: { type: 'sse', url: 'http://localhost:{port}/sse' } }), { code: 'bundle_not_stdio', transport: 'sse' }],
  ['unknown package type', pkg({ registryType: 'nuget', identifier: 'X', version: '1.0.0' }), { code: 'package_type_unsupported', registry_type: 'nuget' }],
  ['package with its own server', pkg({ registryType: 'pypi', identifier: 'srv', version: '1.0', transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } }), { code: 'package_not_stdio', transport: 'streamable-http' }],
  ['other npm registry', pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0', registryBaseUrl: 'https://npm.evil.example' }), { code: 'package_registry_unsupported', registry_type: 'npm', registry_url: 'https://npm.evil.example' }],
  ['identifier that reads as an option', pkg({ registryType: 'oci', identifier: '--privileged' }), { code: 'package_name_invalid', registry_type: 'oci', identifier: '--privileged' }],
  ['version range', pkg({ registryType: 'npm', identifier: 'ok', version: '>=1' }), { code: 'version_inexact', version: '>=1' }],
  ['no version', pkg({ registryType: 'pypi', identifier: 'ok' }), { code: 'no_version' }],
  ['secret on the command line', pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0', runtimeArguments: [{ type: 'positional', valueHint: 'api_key', isSecret: true }] }), { code: 'secret_argument', label: 'api_key' }],
  ['bad env name', pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0', environmentVariables: [{ name: '1BAD' }] }), { code: 'env_name_invalid', name: '1BAD' }],
  ['secret in the URL', remote({ url: 'https://x.example.com/{key}/mcp', variables: { key: { isSecret: true } } }), { code: 'secret_url_variable', name: 'key' }],
  ['bad header name', remote({ headers: [{ name: 'Bad Header' }] }), { code: 'header_name_invalid', name: 'Bad Header' }],
  ['a runtime setting in the environment', pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0', environmentVariables: [{ name: 'npm_config_registry', value: 'https://npm.evil.example' }] }), { code: 'runtime_env_refused', name: 'npm_config_registry' }],
  ['a runtime argument', pkg({ registryType: 'pypi', identifier: 'ok', version: '1.0', runtimeArguments: [{ type: 'named', name: '--index-url', value: 'https://pypi.evil.example' }] }), { code: 'runtime_argument_refused', runtime: 'uvx', argument: '--index-url' }],
  ['a package-source package argument', pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0', packageArguments: [{ type: 'named', name: '--registry', value: 'https://npm.evil.example' }] }), { code: 'package_argument_refused', argument: '--registry https://npm.evil.example' }],
];

describe('reasons from server.json', () => {
  it.each(OPTION_CASES)('%s', (_what, s, want) => {
    const got = optionReason(s);
    expect(got).toEqual(want);
    // Installing that option is refused with the same reason.
    expect(thrownReason(() => buildConfig(s, installOptions(s)[0]!.id, {}))).toEqual(want);
  });

  it('an option that is not there, and a bundle installed without its download', () => {
    const s = pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0' });
    expect(thrownReason(() => buildConfig(s, 'package:3', {}))).toEqual({ code: 'no_such_option', option: 'package:3' });
    expect(thrownReason(() => buildConfig(s, 'remote:0', {}))).toEqual({ code: 'no_such_option', option: 'remote:0' });
    expect(thrownReason(() => buildConfig(s, 'x'.repeat(300), {}))).toEqual({ code: 'no_such_option', option: 'x'.repeat(64) });
    const bundle = pkg({ registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', version: '1.0.0', fileSha256: SHA });
    expect(optionReason(bundle)).toBe('installable');
    expect(thrownReason(() => buildConfig(bundle, 'package:0', {}))).toEqual({ code: 'bundle_download_first' });
  });

  it('an update that changes the type', () => {
    const local = parseServerEntry({ type: 'local', command: ['npx', '-y', 'ok@1.0.0'] });
    const next = buildConfig(remote({}), 'remote:0', {}).input;
    expect(thrownReason(() => updatePatch(local, next, []))).toEqual({ code: 'type_change', before: 'local', after: 'http' });
  });

  it('a missing runtime: known ones by name (python3 → python), anything else as the program', () => {
    for (const rt of ['npx', 'uvx', 'docker', 'node', 'uv'] as const) expect(thrownReason(() => checkRuntime(rt, () => null))).toEqual({ code: 'runtime_missing', runtime: rt });
    expect(thrownReason(() => checkRuntime('python3', () => null))).toEqual({ code: 'runtime_missing', runtime: 'python' });
    expect(thrownReason(() => checkRuntime('/opt/tools/bin/my-server', () => null))).toEqual({ code: 'program_missing', program: '/opt/tools/bin/my-server' });
    expect(() => checkRuntime('npx', () => '/usr/bin/npx')).not.toThrow();
  });

  it('strings from the registry are cut, and every reason fits the contract', () => {
    const long = `a${'b'.repeat(249)}`;
    const got = optionReason(pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0', environmentVariables: [{ name: `-${long}` }] }));
    expect(got).toEqual({ code: 'env_name_invalid', name: `-${long}`.slice(0, REASON_TEXT_MAX) + '…' });
    const removed = new NotInstallableError({ code: 'entry_removed', name: 'io.test/x', message: 'm'.repeat(1000) });
    expect(removed.reason).toEqual({ code: 'entry_removed', name: 'io.test/x', message: `${'m'.repeat(REASON_TEXT_MAX)}…` });
    for (const r of [...OPTION_CASES.map(([, s]) => optionReason(s)), got, removed.reason]) expect(notInstallableReasonSchema.safeParse(r).success).toBe(true);
    // The English message is for logs: the code and its fields, never a secret value (there is none in a reason).
    expect(removed.message).toMatch(/^Not installable: entry_removed \(name: "io\.test\/x", message: "m+…"\)$/);
  });
});

describe('to the window', () => {
  let fx: RegistryFixture;
  let dir: string;
  let core: AppCore;
  beforeAll(async () => {
    fx = await startRegistryFixture();
  });
  afterAll(async () => {
    await fx.close();
  });
  afterEach(async () => {
    await core?.shutdown();
    if (dir) await removeDir(dir);
    await i18next.changeLanguage('en');
  });

  it('a refused install through the real dispatcher carries its reason; the window says it in its language', async () => {
    dir = makeTempDir('op-reasons-');
    core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    await core.start();
    const d = createDispatcher(core);
    expect((await d.invoke('catalog.setSettings', { registry_url: fx.url })).ok).toBe(true);
    const env = await d.invoke('catalog.install', { name: 'io.github.example/gone', version: '1.0.0', option: 'package:0', server_name: 'gone', values: {} });
    if (env.ok) throw new Error('expected a refusal');
    expect(env.error).toMatchObject({ code: 'not_installable', reason: { code: 'entry_removed', name: 'io.github.example/gone', message: 'Malware' } });
    // What crosses the carrier is JSON.
    const error = JSON.parse(JSON.stringify(env.error)) as IpcError;
    expect(describeError(error)).toBe('io.github.example/gone was removed from the registry. The registry says: “Malware”');
    await i18next.changeLanguage('zh-CN');
    expect(describeError(error)).toBe('io.github.example/gone 已从注册中心移除。注册中心的说明：“Malware”');
    expect(core.host.list()).toEqual([]);
  });

  it('toIpcError: missing runtime and not installable carry a reason that fits the schema; one that does not is dropped', async () => {
    expect(toIpcError(new MissingRuntimeError('docker'))).toMatchObject({ code: 'missing_runtime', reason: { code: 'runtime_missing', runtime: 'docker' } });
    expect(toIpcError(new NotInstallableError({ code: 'no_version' }))).toMatchObject({ code: 'not_installable', reason: { code: 'no_version' } });
    const bad = new NotInstallableError({ code: 'no_version' });
    (bad as { reason: unknown }).reason = { code: 'no_version', extra: '<script>' };
    const e = toIpcError(bad);
    expect(e).not.toHaveProperty('reason');
    expect(e.code).toBe('not_installable');
    // Without a usable reason the window falls back to main's message (with the translated lead in Chinese).
    await i18next.changeLanguage('zh-CN');
    expect(describeError({ code: 'not_installable', message: 'Not installable: no_version', reason: { code: 'nope' } as unknown as NotInstallableReason })).toBe('无法安装：Not installable: no_version');
  });

  it('every code has its sentence in English and Chinese; runtimes one each', () => {
    const codes = notInstallableReasonSchema.options.map((o) => o.shape.code.value);
    const whyEn = en.catalog.why as Record<string, unknown>;
    const whyZh = zhCN.catalog.why as Record<string, unknown>;
    for (const c of codes) {
      expect(whyEn[c], c).toBeDefined();
      expect(whyZh[c], c).toBeDefined();
    }
    for (const rt of catalogRuntimes) {
      expect(en.catalog.why.runtime_missing[rt]).toMatch(/PATH/);
      expect(zhCN.catalog.why.runtime_missing[rt]).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('renders each reason with its data as text, cut, in both languages', async () => {
    const evil = '<img src=x onerror=alert(1)> {{name}} $t(catalog.title)';
    const r: NotInstallableReason = { code: 'package_name_invalid', registry_type: 'npm', identifier: evil };
    expect(describeReason(r)).toBe(`“${evil}” is not a valid npm package name.`);
    expect(describeReason({ code: 'runtime_missing', runtime: 'uvx' })).toMatch(/^This server runs with uvx, which was not found on PATH\. Install uv/);
    expect(describeReason({ code: 'entry_removed', name: 'a/b' })).toBe('a/b was removed from the registry.');
    expect(describeReason({ code: 'version_inexact', version: 'v'.repeat(300) })).toBe(`“${'v'.repeat(REASON_TEXT_MAX)}…” is not an exact package version.`);
    const redirect: NotInstallableReason = { code: 'runtime_argument_refused', runtime: 'docker', argument: '-v /:/host' };
    expect(describeReason(redirect)).toBe('It passes “-v /:/host” to docker, which could make docker fetch or run something other than the package shown, or give it more access. It is not installed.');
    await i18next.changeLanguage('zh-CN');
    expect(describeReason(r)).toBe(`“${evil}”不是有效的 npm 软件包名称。`);
    expect(describeReason(redirect)).toBe('它向 docker 传递“-v /:/host”，这可能使 docker 获取或运行所显示软件包以外的内容，或获得更多权限。因此不予安装。');
    expect(describeReason({ code: 'runtime_missing', runtime: 'python' })).toBe('此服务器用 Python 运行，但在 PATH 中找不到它。请安装 Python 3（https://www.python.org/downloads/），然后重试。');
    expect(describeReason({ code: 'type_change', before: 'local', after: 'sse' })).toBe('新版本是 sse 服务器，而当前的是 local 服务器；请移除它，再安装新版本。');
    // Every code renders to a Chinese sentence, not to its key.
    const sample: Record<string, string> = { argument: '--registry https://evil.example', transport: 'sse', registry_type: 'npm', registry_url: 'https://r.example', identifier: 'x', version: '1', label: 'l', name: 'n', option: 'o', server: 's', field: 'f', program: 'p', before: 'local', after: 'http', runtime: 'npx' };
    for (const o of notInstallableReasonSchema.options) {
      const shape = o.shape as Record<string, unknown>;
      const reason = Object.fromEntries(Object.keys(shape).map((k) => [k, k === 'code' ? o.shape.code.value : sample[k]]).filter(([, v]) => v !== undefined)) as NotInstallableReason;
      expect(notInstallableReasonSchema.safeParse(reason).success, reason.code).toBe(true);
      const text = describeReason(reason);
      expect(text, reason.code).toMatch(/[\u4e00-\u9fff]/);
      expect(text, reason.code).not.toContain('catalog.why');
      expect(text, reason.code).not.toMatch(/\{\{/);
    }
  });
});
