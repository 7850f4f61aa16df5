/**
 * server.json → server config (main/mcp/catalog/mapping.ts): every package type, every argument
 * kind (positional, named, value hints, variables, isRepeated, defaults, choices, isSecret),
 * remotes and their URL checks. Documents are validated with the registry schema first, as the
 * app does.
 */
import { describe, expect, it } from 'vitest';
import { buildConfig, CatalogInputError, checkRemoteUrl, installOptions } from '../../../../main/mcp/catalog/mapping.js';
import { NotInstallableError } from '../../../../main/mcp/catalog/reasons.js';
import type { NotInstallableReason } from '../../../../preload/contract/index.js';
import { serverJsonSchema, type ServerJson } from '../../../../main/mcp/catalog/schema.js';
import { parseServerEntry } from '../../../../main/mcp/config.js';
import { carriedValues, neededFields } from '../../../../main/mcp/catalog/diff.js';
import { EVERYTHING_VERSION, everythingServer, fixtureEntries, remoteServer } from '../../../fixtures/registry-data.js';

const doc = (raw: unknown): ServerJson => serverJsonSchema.parse(raw);
const byName = (name: string): ServerJson => doc(fixtureEntries().find((e) => e.server.name === name)!.server);
const pkg = (p: Record<string, unknown>): ServerJson => doc({ name: 'io.test/x', description: 'x', version: '1.0.0', packages: [{ transport: { type: 'stdio' }, ...p }] });

describe('packages', () => {
  it('npm → npx -y id@version, env (secret included) into env, positional default', () => {
    const s = doc(everythingServer('1.0.0'));
    const [opt] = installOptions(s);
    expect(opt).toMatchObject({ id: 'package:0', installable: true, runtime: 'npx', transport: 'stdio' });
    if (!opt!.installable) throw new Error('not installable');
    expect(opt!.fields.map((f) => [f.id, f.required, f.secret])).toEqual([
      ['arg:package:0', false, false],
      ['env:EVERYTHING_TOKEN', true, true],
    ]);
    const built = buildConfig(s, 'package:0', { 'env:EVERYTHING_TOKEN': 'tok-123' });
    expect(built.input).toEqual({ type: 'local', command: ['npx', '-y', `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`, 'stdio'], env: { EVERYTHING_TOKEN: 'tok-123' } });
    // The secret is never remembered (only command-line answers are).
    expect(built.remembered).toEqual({ 'arg:package:0': 'stdio' });
    // What the mapping produces loads back through the config schema unchanged.
    expect(parseServerEntry(built.input)).toMatchObject({ type: 'local', command: built.input.type === 'local' ? built.input.command : [] });
  });

  it('a required value that is missing, a choice that is not offered, are refused with the field', () => {
    const s = doc(everythingServer('1.1.0'));
    expect(() => buildConfig(s, 'package:0', {})).toThrow(CatalogInputError);
    try {
      buildConfig(s, 'package:0', {});
    } catch (err) {
      expect((err as CatalogInputError).field).toBe('env:EVERYTHING_TOKEN');
      // Why, for the window to word: the field's label as the registry gives it.
      expect((err as CatalogInputError).fact).toMatchObject({ kind: 'catalog_input', problem: 'required', choices: [] });
    }
    const bad = (): unknown => buildConfig(s, 'package:0', { 'env:EVERYTHING_TOKEN': 't', 'env:EVERYTHING_MODE': 'turbo' });
    expect(bad).toThrow(/one of: fast, slow/);
    expect((() => {
      try {
        return bad();
      } catch (err) {
        return (err as CatalogInputError).fact;
      }
    })()).toMatchObject({ kind: 'catalog_input', problem: 'choice', choices: ['fast', 'slow'] });
    expect(buildConfig(s, 'package:0', { 'env:EVERYTHING_TOKEN': 't' }).input).toMatchObject({ env: { EVERYTHING_TOKEN: 't', EVERYTHING_MODE: 'fast' } });
  });

  it('pypi → uvx id==version with a named argument and its default', () => {
    const s = byName('io.github.example/time-py');
    expect(buildConfig(s, 'package:0', {}).input).toEqual({ type: 'local', command: ['uvx', 'mcp-server-time==0.6.2', '--local-timezone', 'UTC'], env: {} });
    expect(buildConfig(s, 'package:0', { 'arg:package:0': 'Europe/Berlin' }).input).toMatchObject({ command: ['uvx', 'mcp-server-time==0.6.2', '--local-timezone', 'Europe/Berlin'] });
  });

  it('oci → docker run -i --rm, runtime argument with a variable, env passed by name only', () => {
    const s = byName('io.github.example/files-oci');
    const [opt] = installOptions(s);
    if (!opt!.installable) throw new Error('not installable');
    expect(opt!.fields.map((f) => f.id)).toEqual(['arg:runtime:0/source_path', 'env:LOG_LEVEL']);
    expect(() => buildConfig(s, 'package:0', {})).toThrow(/source_path is required/);
    const built = buildConfig(s, 'package:0', { 'arg:runtime:0/source_path': '/home/me/my files' });
    expect(built.input).toEqual({
      type: 'local',
      command: ['docker', 'run', '-i', '--rm', '--mount', 'type=bind,src=/home/me/my files,dst=/data', '-e', 'LOG_LEVEL', 'docker.io/example/files-mcp:1.2.0'],
      env: { LOG_LEVEL: 'info' },
    });
    expect(built.remembered).toEqual({ 'arg:runtime:0/source_path': '/home/me/my files' });
    expect(buildConfig(pkg({ registryType: 'oci', identifier: 'example/img', version: '2.0' }), 'package:0', {}).input).toMatchObject({ command: ['docker', 'run', '-i', '--rm', 'example/img:2.0'] });
  });

  it('repeated positional and named arguments become one argv entry per value; shell syntax stays data', () => {
    const s = pkg({
      registryType: 'npm',
      identifier: 'fs-mcp',
      version: '1.0.0',
      packageArguments: [
        { type: 'named', name: '--root', isRepeated: true },
        { type: 'positional', valueHint: 'dir', isRepeated: true, isRequired: true },
        { type: 'named', name: '--verbose', format: 'boolean' },
        { type: 'named', name: '--port', format: 'number' },
      ],
    });
    const built = buildConfig(s, 'package:0', { 'arg:package:0': ['/a', '/b'], 'arg:package:1': ['x; rm -rf ~', '$(id)'], 'arg:package:2': 'true' });
    expect(built.input).toMatchObject({ command: ['npx', '-y', 'fs-mcp@1.0.0', '--root', '/a', '--root', '/b', 'x; rm -rf ~', '$(id)', '--verbose'] });
    expect(buildConfig(s, 'package:0', { 'arg:package:1': 'd', 'arg:package:2': 'false' }).input).toMatchObject({ command: ['npx', '-y', 'fs-mcp@1.0.0', 'd'] });
    expect(() => buildConfig(s, 'package:0', { 'arg:package:1': 'd', 'arg:package:3': 'eighty' })).toThrow(/must be a number/);
    expect(() => buildConfig(s, 'package:0', { 'arg:package:1': 'd', 'arg:package:2': 'yes' })).toThrow(/true or false/);
    expect(() => buildConfig(s, 'package:0', { 'arg:package:1': 'a\nb' })).toThrow(/one line/);
    // A field that is not repeated takes one value.
    expect(() => buildConfig(s, 'package:0', { 'arg:package:1': 'd', 'arg:package:3': ['1', '2'] })).toThrow(/one value/);
  });

  it('runtime arguments come before the package; fixed values with unknown {names} stay as written', () => {
    const s = pkg({ registryType: 'oci', identifier: 'example/srv', version: '3.1.4', runtimeArguments: [{ type: 'named', name: '--memory', value: '{mem}' }], packageArguments: [{ type: 'positional', value: '{literal}' }] });
    expect(buildConfig(s, 'package:0', {}).input).toMatchObject({ command: ['docker', 'run', '-i', '--rm', '--memory', '{mem}', 'example/srv:3.1.4', '{literal}'] });
    const [opt] = installOptions(s);
    expect(opt).toMatchObject({ fixed: [{ kind: 'runtime_argument', name: '--memory', value: '{mem}' }, { kind: 'package_argument', name: null, value: '{literal}' }] });
  });

  it('env values with variables are filled from the answers and not remembered', () => {
    const s = pkg({ registryType: 'npm', identifier: 'x', version: '1.0.0', environmentVariables: [{ name: 'AUTH', value: 'Bearer {token}', variables: { token: { isRequired: true, isSecret: true } } }] });
    const built = buildConfig(s, 'package:0', { 'env:AUTH/token': 'abc' });
    expect(built.input).toMatchObject({ env: { AUTH: 'Bearer abc' } });
    expect(built.remembered).toEqual({});
  });

  it('refuses what cannot be installed safely, with the reason', () => {
    const reason = (p: Record<string, unknown>): NotInstallableReason | 'installable' => {
      const [o] = installOptions(pkg(p));
      return o!.installable ? 'installable' : o!.reason;
    };
    expect(reason({ registryType: 'npm', identifier: '--registry=https://evil.example', version: '1.0.0' })).toEqual({ code: 'package_name_invalid', registry_type: 'npm', identifier: '--registry=https://evil.example' });
    expect(reason({ registryType: 'npm', identifier: 'ok', version: '^1.0.0' })).toEqual({ code: 'version_inexact', version: '^1.0.0' });
    expect(reason({ registryType: 'npm', identifier: 'ok', version: 'latest' })).toEqual({ code: 'version_inexact', version: 'latest' });
    expect(reason({ registryType: 'npm', identifier: 'ok' })).toEqual({ code: 'no_version' });
    expect(reason({ registryType: 'npm', identifier: 'ok', version: '1.0.0', registryBaseUrl: 'https://npm.evil.example' })).toEqual({ code: 'package_registry_unsupported', registry_type: 'npm', registry_url: 'https://npm.evil.example' });
    expect(reason({ registryType: 'pypi', identifier: '-e', version: '1.0' })).toEqual({ code: 'package_name_invalid', registry_type: 'pypi', identifier: '-e' });
    expect(reason({ registryType: 'oci', identifier: '--privileged' })).toEqual({ code: 'package_name_invalid', registry_type: 'oci', identifier: '--privileged' });
    expect(reason({ registryType: 'nuget', identifier: 'X', version: '1.0.0' })).toEqual({ code: 'package_type_unsupported', registry_type: 'nuget' });
    expect(reason({ registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', version: '1.0.0', fileSha256: 'a'.repeat(64) })).toBe('installable');
    expect(reason({ registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', version: '1.0.0' })).toEqual({ code: 'bundle_no_sha256' });
    expect(reason({ registryType: 'mcpb', identifier: 'http://example.com/x.mcpb', version: '1.0.0', fileSha256: 'a'.repeat(64) })).toEqual({ code: 'bundle_not_https' });
    expect(reason({ registryType: 'mcpb', identifier: 'http://127.0.0.1:8/x.mcpb', version: '1.0.0', fileSha256: 'a'.repeat(64) })).toBe('installable');
    expect(() => buildConfig(pkg({ registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', version: '1.0.0', fileSha256: 'a'.repeat(64) }), 'package:0', {})).toThrow(expect.objectContaining({ reason: { code: 'bundle_download_first' } }));
    expect(reason({ registryType: 'npm', identifier: 'ok', version: '1.0.0', transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } })).toEqual({ code: 'package_not_stdio', transport: 'streamable-http' });
    expect(reason({ registryType: 'npm', identifier: 'ok', version: '1.0.0', packageArguments: [{ type: 'named', name: '--token', isSecret: true }] })).toEqual({ code: 'secret_argument', label: '--token' });
    expect(reason({ registryType: 'npm', identifier: 'ok', version: '1.0.0', environmentVariables: [{ name: 'BAD-NAME' }] })).toEqual({ code: 'env_name_invalid', name: 'BAD-NAME' });
    expect(() => buildConfig(pkg({ registryType: 'nuget', identifier: 'X', version: '1.0.0' }), 'package:0', {})).toThrow(NotInstallableError);
    expect(() => buildConfig(pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0' }), 'package:7', {})).toThrow(NotInstallableError);
    expect(() => buildConfig(pkg({ registryType: 'npm', identifier: 'ok', version: '1.0.0' }), '__proto__', {})).toThrow(NotInstallableError);
  });

  it('a server.json that does not validate is refused by the schema', () => {
    const broken = fixtureEntries().find((e) => e.server.name === 'io.github.example/broken')!.server;
    expect(serverJsonSchema.safeParse(broken).success).toBe(false);
    expect(serverJsonSchema.safeParse({ name: 'no-namespace', description: 'x', version: '1' }).success).toBe(false);
  });
});

describe('remotes', () => {
  it('fills the URL template from the answers; headers (secret) go to headers', () => {
    const s = doc(remoteServer());
    const [opt] = installOptions(s);
    if (!opt!.installable) throw new Error('not installable');
    expect(opt!.fields.map((f) => [f.id, f.kind, f.secret])).toEqual([
      ['url/base', 'url_variable', false],
      ['header:X-Api-Key', 'header', true],
    ]);
    const built = buildConfig(s, 'remote:0', { 'url/base': 'https://weather.example.com', 'header:X-Api-Key': 'k-1' });
    expect(built.input).toEqual({ type: 'http', url: 'https://weather.example.com/mcp', headers: { 'X-Api-Key': 'k-1' } });
    expect(built.remembered).toEqual({ 'url/base': 'https://weather.example.com' });
    expect(buildConfig(s, 'remote:0', { 'url/base': 'http://127.0.0.1:8123' }).input).toMatchObject({ url: 'http://127.0.0.1:8123/mcp', headers: {} });
  });

  it('only https, or http to loopback; no credentials; nothing unfilled', () => {
    const s = doc(remoteServer());
    expect(() => buildConfig(s, 'remote:0', { 'url/base': 'http://weather.example.com' })).toThrow(/Only https/);
    expect(() => buildConfig(s, 'remote:0', { 'url/base': 'file:///etc' })).toThrow(CatalogInputError);
    expect(() => buildConfig(s, 'remote:0', { 'url/base': 'https://u:p@weather.example.com' })).toThrow(/user name or password/);
    expect(() => buildConfig(s, 'remote:0', {})).toThrow(/base is required/);
    expect(checkRemoteUrl('http://[::1]:9/mcp')).toBe('http://[::1]:9/mcp');
    expect(checkRemoteUrl('http://localhost/mcp')).toBe('http://localhost/mcp');
    expect(() => checkRemoteUrl('http://127.0.0.1.evil.example/mcp')).toThrow(/Only https/);
    for (const [url, problem] of [['http://127.0.0.1.evil.example/mcp', 'url_scheme'], ['https://u:p@example.com/mcp', 'url_credentials'], ['https://example.com/{tenant}/mcp', 'url_unfilled'], ['not a url', 'url_invalid']] as const) {
      const err = (() => {
        try {
          return checkRemoteUrl(url);
        } catch (e) {
          return e;
        }
      })();
      expect((err as CatalogInputError).fact, url).toMatchObject({ kind: 'catalog_input', problem, label: null });
    }
    const sse = doc({ name: 'io.test/s', description: 'x', version: '1', remotes: [{ type: 'sse', url: 'https://x.example.com/{path}', variables: { path: { default: 'sse' } } }] });
    expect(buildConfig(sse, 'remote:0', {}).input).toEqual({ type: 'sse', url: 'https://x.example.com/sse', headers: {} });
    const unfilled = doc({ name: 'io.test/s', description: 'x', version: '1', remotes: [{ type: 'sse', url: 'https://x.example.com/{nope}' }] });
    expect(() => buildConfig(unfilled, 'remote:0', {})).toThrow(/unfilled/);
  });

  it('a secret URL variable is not installable', () => {
    const s = doc({ name: 'io.test/s', description: 'x', version: '1', remotes: [{ type: 'streamable-http', url: 'https://x.example.com/{key}', variables: { key: { isSecret: true } } }] });
    const [opt] = installOptions(s);
    expect(opt).toMatchObject({ installable: false, reason: { code: 'secret_url_variable', name: 'key' } });
  });
});

describe('answers carried to a new version', () => {
  it('go only to the same flag or value hint; an argument that moved is asked again; env values come from the server', () => {
    const v1 = pkg({ registryType: 'npm', identifier: 'x', version: '1.0.0', packageArguments: [{ type: 'positional', valueHint: 'dir', isRequired: true }], environmentVariables: [{ name: 'TOKEN', isRequired: true, isSecret: true }] });
    const built = buildConfig(v1, 'package:0', { 'arg:package:0': '/data', 'env:TOKEN': 't-1' });
    expect(built.labels).toEqual({ 'arg:package:0': 'dir' });
    // v2 puts a new required flag first; "dir" moves to the second place.
    const v2 = pkg({ registryType: 'npm', identifier: 'x', version: '2.0.0', packageArguments: [{ type: 'named', name: '--mode', isRequired: true }, { type: 'positional', valueHint: 'dir', isRequired: true }], environmentVariables: [{ name: 'TOKEN', isRequired: true, isSecret: true }] });
    const [opt] = installOptions(v2);
    if (!opt!.installable) throw new Error('not installable');
    const current = parseServerEntry(built.input);
    const carried = carriedValues(current, opt!.fields, built.remembered, built.labels);
    expect(carried).toEqual({ 'env:TOKEN': 't-1' });
    expect(neededFields(opt!.fields, carried).map((f) => f.label)).toEqual(['--mode', 'dir']);
    // The same shape again: the answer is carried.
    const [same] = installOptions(v1);
    if (!same!.installable) throw new Error('not installable');
    expect(carriedValues(current, same!.fields, built.remembered, built.labels)).toEqual({ 'arg:package:0': '/data', 'env:TOKEN': 't-1' });
  });
});
