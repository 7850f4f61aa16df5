/**
 * The canary test: distinctive values go into every secret-bearing field (server env, remote
 * headers, the model API key); then every IPC channel of the contract is driven — success and
 * error paths — while every reply, every event, every console line and every file of the state
 * dir is captured. No canary may appear anywhere except inside the encrypted vault, in any
 * encoding (plain, base64, base64url, URL-encoded, JSON-escaped).
 *
 * The channel list is derived from the contract: a new channel without a sample here fails to
 * compile (the `Samples` type) and fails at run time.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames, type ChannelInput, type ChannelName } from '../../../preload/contract/index.js';
import { AppCore } from '../../../main/core.js';
import { createDispatcher } from '../../../main/ipc/dispatch.js';
import { openSecretStore } from '../../../main/secrets/index.js';
import { redactConsole } from '../../../main/secrets/redact.js';
import type { KeytarLike } from '../../../main/secrets/vault.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { startRegistryFixture, type RegistryFixture } from '../../fixtures/registry-server.js';
import { goodBundle } from '../../fixtures/bundles.js';
import { makeTempDir, removeDir, ROOT, sdkCommand, waitFor } from '../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');

const CANARIES = {
  env: 'CANARY-env-7f3a9c1e5b2d4f60',
  header: 'CANARY-hdr-2b8e6d4c0a9f1e37',
  apiKey: 'CANARY-key-91d2c3b4a5e6f708',
  envNew: 'CANARY-envB-5c4d3e2f1a0b9c8d',
  bearer: 'CANARY-brr-0d9c8b7a6f5e4d3c',
  clientSecret: 'CANARY-cls-6e5d4c3b2a1f0e9d',
  // Parts of a URL (userinfo, a query value) and a secret-marked command argument.
  urlUser: 'CANARY-usr-4a3b2c1d0e9f8a7b',
  urlPassword: 'CANARY-pwd-8b7a6f5e4d3c2b1a',
  urlQuery: 'CANARY-qry-1f2e3d4c5b6a7980',
  arg: 'CANARY-arg-9e8d7c6b5a4f3e2d',
  // Quotes, a tab, a slash, non-ASCII, &, +, <, >: its escaped forms differ from the plain one.
  escaped: `CANARY-esc'"\t/é&+<x> 0c1d2e3f`,
};

/**
 * Every encoding a leak could take: plain; base64 and base64url (at any alignment); percent-encoded
 * (encodeURIComponent, encodeURI, form encoding, lower-case hex); JSON-escaped (as is, with `\/`,
 * ASCII-only, twice); util.inspect-escaped (Node's `Received '…'`); HTML-escaped.
 */
function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    encodeURI(secret),
    new URLSearchParams({ k: secret }).toString().slice(2),
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    JSON.stringify(json).slice(1, -1),
    inspect(secret).slice(1, -1),
    secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    // A base64 window that does not start at a 3-byte boundary still shares long runs:
    Buffer.from(`x${secret}`).toString('base64').slice(4, 20),
    Buffer.from(`xy${secret}`).toString('base64').slice(4, 20),
  ];
}

function findCanary(text: string): string | null {
  for (const [field, secret] of Object.entries(CANARIES)) for (const e of encodings(secret)) if (text.includes(e)) return `${field} (${e})`;
  return null;
}

/** An in-memory keychain, so the real vault code runs without touching the developer's keychain. */
function memoryKeychain(): KeytarLike {
  const m = new Map<string, string>();
  return {
    async getPassword(s, a) {
      return m.get(`${s}\u0000${a}`) ?? null;
    },
    async setPassword(s, a, p) {
      m.set(`${s}\u0000${a}`, p);
    },
    async deletePassword(s, a) {
      return m.delete(`${s}\u0000${a}`);
    },
  };
}

type Samples = { [C in ChannelName]: Array<ChannelInput<C> | Record<string, unknown>> };

let dir: string;
let core: AppCore;
let model: FakeModel;
/** A remote "server" that echoes every request header back in a 500 error, plain and base64. */
let echo: http.Server;
let echoUrl = '';
let registry: RegistryFixture;
const seen: Array<{ where: string; text: string }> = [];
const restore: Array<() => void> = [];

/** Every string of a value (keys included), so an encoding is found as sent, not re-escaped by JSON. */
function leaves(v: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'object' && v !== null && depth < 64) {
    for (const [k, x] of Object.entries(v)) {
      if (!Array.isArray(v)) out.push(k);
      leaves(x, out, depth + 1);
    }
  }
  return out;
}

function capture(where: string, v: unknown): void {
  seen.push({ where, text: typeof v === 'string' ? v : `${JSON.stringify(v) ?? String(v)}\n${leaves(v).join('\n')}` });
}

beforeAll(async () => {
  dir = makeTempDir('op-canary-');
  model = await startFakeModel();
  echo = http.createServer((req, res) => {
    req.resume();
    const headers = JSON.stringify({ url: req.url, ...req.headers });
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream rejected request with headers ${headers} (b64 ${Buffer.from(headers).toString('base64')})`);
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}/mcp`;
  registry = await startRegistryFixture();
  for (const stream of [process.stdout, process.stderr] as const) {
    const orig = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      capture(`console(${stream === process.stdout ? 'stdout' : 'stderr'})`, String(chunk));
      return (orig as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = orig as typeof stream.write));
  }
  const secrets = await openSecretStore(dir, { keytar: memoryKeychain(), env: {} });
  expect(secrets.info().kind).toBe('keychain');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets });
  // The app's log: capture what the console would print, after the redaction the shells install.
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const orig = console[m];
    console[m] = (...args: unknown[]) => capture(`console.${m}`, args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    restore.push(() => (console[m] = orig));
  }
  restore.push(redactConsole(core.redactor));
  core.subscribe((event, payload) => capture(`event ${event}`, payload));
  await core.start();
});

afterAll(async () => {
  await core?.shutdown();
  await model?.close();
  await registry?.close();
  echo?.closeAllConnections();
  await new Promise((r) => echo?.close(r));
  restore.reverse().forEach((r) => r());
  await removeDir(dir);
});

describe('no secret ever leaves main (canary)', () => {
  it('drives every channel, success and error paths, and finds no canary outside the vault', async () => {
    const errors: unknown[] = [];
    const d = createDispatcher(core, (c, e) => errors.push([c, String(e)]));
    const invoke = async (channel: string, input: unknown) => {
      const r = await d.invoke(channel, input);
      capture(`reply ${channel}`, r);
      return r;
    };

    // Put canaries into every secret-bearing field.
    await invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake', api_key: CANARIES.apiKey });
    await invoke('servers.add', { name: 'local', config: { type: 'local', command: sdkCommand(), env: { TOKEN: CANARIES.env } } });
    await invoke('servers.add', { name: 'remote', config: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${CANARIES.header}` }, timeout_seconds: 2 } });
    await invoke('servers.add', { name: 'bearer', config: { type: 'http', url: 'http://127.0.0.1:9/mcp', auth: { kind: 'bearer', token: CANARIES.bearer }, timeout_seconds: 2 } });
    await invoke('servers.add', { name: 'oauth', config: { type: 'http', url: 'http://127.0.0.1:9/mcp', auth: { kind: 'oauth', client_id: 'cid', client_secret: CANARIES.clientSecret }, timeout_seconds: 2 } });
    // Servers and a model endpoint that echo the secret back: on stderr, in an HTTP error body
    // (plain and base64), in the model's error message.
    await invoke('servers.add', { name: 'stderr', config: { type: 'local', command: [process.execPath, RAW, 'stderr-env'], env: { TOKEN: CANARIES.env } } });
    await invoke('servers.add', { name: 'echo', config: { type: 'http', url: echoUrl, headers: { 'X-Api-Key': CANARIES.header }, auth: { kind: 'bearer', token: CANARIES.bearer }, timeout_seconds: 5 } });
    // Secrets in a URL (userinfo, a query value) that the server echoes back, and a secret argument
    // and an escaped-character env value that the servers print on stderr.
    const secretUrl = `${echoUrl.replace('http://', `http://${CANARIES.urlUser}:${CANARIES.urlPassword}@`)}?token=${CANARIES.urlQuery}&v=1`;
    await invoke('servers.add', { name: 'urlsec', config: { type: 'http', url: secretUrl, timeout_seconds: 5 } });
    await invoke('servers.add', { name: 'argsec', config: { type: 'local', command: [...sdkCommand(), `--stderr=${CANARIES.arg}`], secret_args: [2] } });
    await invoke('servers.add', { name: 'forms', config: { type: 'local', command: [process.execPath, RAW, 'stderr-forms'], env: { TOKEN: CANARIES.escaped } } });
    expect(await waitFor(() => core.host.view('echo').state.kind === 'error' && core.host.view('stderr').state.kind === 'ready', 15_000)).toBe(true);
    expect(await waitFor(() => core.host.view('urlsec').state.kind === 'error' && core.host.view('argsec').state.kind === 'ready' && core.host.view('forms').stderr_tail.length >= 10, 15_000)).toBe(true);
    // The views mask these themselves (`***`), before any redaction: none says `[redacted]`.
    const urlView = await invoke('servers.get', { name: 'urlsec' });
    const argView = await invoke('servers.get', { name: 'argsec' });
    expect(urlView).toMatchObject({ ok: true, value: { url: `${echoUrl.replace('http://', 'http://***:***@')}?token=***&v=***` } });
    expect(argView).toMatchObject({ ok: true, value: { command: [...sdkCommand(), '***'], secret_args: [2] } });
    // Its failure names the URL as the view shows it.
    expect(urlView).toMatchObject({ value: { state: { kind: 'error', failure: { kind: 'connect_failed', url: expect.stringContaining(`http://***:***@127.0.0.1:${new URL(echoUrl).port}/mcp?token=***`) } } } });
    await invoke('servers.logs', { name: 'urlsec' });
    await invoke('servers.logs', { name: 'argsec' });
    await invoke('servers.logs', { name: 'forms' });
    await invoke('servers.get', { name: 'echo' });
    await invoke('servers.logs', { name: 'echo' });
    await invoke('servers.logs', { name: 'stderr' });
    await invoke('chat.send', { conversation_id: 'leak', text: 'echo my key' });
    // The endpoint answered 401 with the key in its error text; the chat says so in its own words.
    expect(await waitFor(() => seen.some((s) => s.where === 'event chat.event' && s.text.includes('"conversation_id":"leak"') && s.text.includes('"type":"run-end"')), 10_000)).toBe(true);
    expect(model.requests.some((r) => JSON.stringify(r.body).includes('echo my key'))).toBe(true);
    // The echoes really happened, so a missing redaction would be seen below.
    expect(seen.some((s) => s.text.includes('[redacted]'))).toBe(true);
    expect(core.redactor.size).toBeGreaterThan(0);
    expect(await waitFor(() => core.host.view('local').state.kind === 'ready', 15_000)).toBe(true);
    expect(await waitFor(() => core.host.view('remote').state.kind === 'error', 15_000)).toBe(true);
    expect(await waitFor(() => core.host.view('bearer').state.kind === 'error' && core.host.view('oauth').state.kind !== 'starting', 15_000)).toBe(true);

    // A real pending approval, so approvals.list / approvals.respond and their events carry one.
    const pendingAuth = core.permissions.gate.authorize({ conversation_id: 'c1', run_id: 'canary-run', call_id: 'canary-call', tool: core.host.tool('local__env_check')!, args: { name: 'TOKEN', sha256: '0' } });
    expect(await waitFor(() => core.permissions.pending().length === 1, 15_000)).toBe(true);
    const approvalId = core.permissions.pending()[0]!.id;
    // The chat's own tool call below runs without a card (the approval path is driven above).
    await core.permissions.setMode('never_ask');

    // A bundle looked at already, so bundleInstall can carry a canary as its sensitive answer.
    const bundleToken = (await core.catalog.bundles.inspect(goodBundle())).token;
    const samples: Samples = {
      'app.info': [{}, { extra: CANARIES.env }],
      'app.secretsInfo': [{}],
      'servers.list': [{}, 'not-an-object' as unknown as Record<string, unknown>],
      'servers.get': [{ name: 'local' }, { name: 'remote' }, { name: 'missing' }],
      'servers.add': [
        { name: 'local', config: { type: 'local', command: sdkCommand(), env: { TOKEN: CANARIES.env } } }, // conflict
        { name: 'bad', config: { type: 'local', command: ['no-such-command-xyz'], env: { TOKEN: CANARIES.env } } }, // not found
        { name: 'bad2', config: { type: 'local', command: ['x'], env: { '1BAD': CANARIES.env } } }, // invalid env name
        { name: 'bad3', config: { type: 'local', command: ['x'], env: { OK: 42 } } }, // wrong type next to a canary
        { name: 'bad4', config: { type: 'local', command: [process.execPath, `--x=${CANARIES.arg}\u0000`], secret_args: [1] } }, // control character
        { name: 'bad5', config: { type: 'http', url: `http://${CANARIES.urlUser}@127.0.0.1:9/mcp?token=${CANARIES.urlQuery}\u0000` } }, // control character
        { name: 'bad6', config: { type: 'local', command: [process.execPath, '***'], env: { T: CANARIES.env } } }, // *** with nothing stored
        { name: 'bad7', config: { type: 'local', command: [process.execPath, CANARIES.arg], secret_args: [5] } }, // no such argument
      ],
      'servers.update': [
        { name: 'local', patch: { timeout_seconds: 30 } },
        { name: 'local', patch: { env: { NEWVAR: CANARIES.envNew } } },
        { name: 'local', patch: { command: ['no-such-command-xyz'], env: { TOKEN: CANARIES.envNew } } }, // fails, nothing saved
        { name: 'remote', patch: { headers: { 'X-Other': CANARIES.envNew } } }, // restart fails (no server there)
        { name: 'bearer', patch: { auth: { token: CANARIES.envNew } } },
        { name: 'oauth', patch: { auth: { kind: 'bearer', token: CANARIES.envNew } } },
        { name: 'missing', patch: {} },
        // URL parts and secret arguments: kept by ***, replaced by name, refused without a stored value.
        { name: 'urlsec', patch: { url: secretUrl.replace(`${CANARIES.urlUser}:${CANARIES.urlPassword}`, '***:***').replace(CANARIES.urlQuery, '***').replace('v=1', 'v=2') } },
        { name: 'urlsec', patch: { url_secrets: { 'query:token': CANARIES.envNew, password: '' } } },
        { name: 'urlsec', patch: { url: `${echoUrl}?token=***&other=***` } },
        { name: 'argsec', patch: { command: [...sdkCommand(), '***', '--tools=1'] } },
        { name: 'argsec', patch: { command: [...sdkCommand(), '***', '***'] } },
        { name: 'argsec', patch: { command: [...sdkCommand(), `--stderr=${CANARIES.arg}`, `--api-key=${CANARIES.envNew}`], secret_args: [2] } },
      ],
      // A real rename there and back (its event carries the view), one of no server, one to a taken name.
      'servers.rename': [{ name: 'bearer', new_name: 'bearer-renamed' }, { name: 'bearer-renamed', new_name: 'bearer' }, { name: 'missing', new_name: 'other' }, { name: 'local', new_name: 'remote' }],
      'servers.setEnabled': [{ name: 'remote', enabled: false }, { name: 'remote', enabled: true }],
      // (auth edits: a new bearer token that fails, a kind change that fails — nothing is saved)
      'servers.restart': [{ name: 'local' }, { name: 'missing' }],
      'servers.logs': [{ name: 'local' }, { name: 'remote' }, { name: 'bearer' }, { name: 'oauth' }],
      'context.templates': [{}],
      'context.complete': [{ server: 'local', ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: CANARIES.env } }, { server: 'remote', ref: { type: 'ref/resource', uri: 'x://y' }, argument: { name: 'a', value: '' } }],
      'context.read': [{ server: 'local', uri: 'file:///etc/passwd' }, { server: 'bearer', uri: 'x://y' }],
      'context.save': [{ server: 'local', uri: 'javascript:alert(1)' }],
      'context.subscribe': [{ server: 'local', uri: 'x://y' }],
      'context.unsubscribe': [{ server: 'local', uri: 'x://y' }],
      'apps.view': [
        { conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', server: 'local', tool: 'env_check' },
        { conversation_id: 'c1', run_id: 'r1', call_id: 'call-2', server: 'missing', tool: 'x' },
      ],
      'apps.setViewClosed': [
        { conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', closed: true },
        { conversation_id: 'missing', run_id: 'r1', call_id: 'call-1', closed: false },
      ],
      'apps.callTool': [{ view_instance: 'view-instance-1', tool: 'no_such_tool', arguments: { token: CANARIES.env } }],
      'apps.updateModelContext': [{ view_instance: 'view-instance-1', text: 'hello' }],
      'apps.readResource': [{ view_instance: 'view-instance-1', uri: 'x://y' }],
      'apps.releaseView': [{ view_instance: 'view-instance-1' }],
      'apps.log': [{ view_instance: 'view-instance-1', level: 'info', data: 'hello' }, { view_instance: 'view-instance-2', level: 'error', logger: 'x', data: 'gone' }],
      'servers.signIn': [{ name: 'oauth' }, { name: 'local' }, { name: 'missing' }],
      'servers.cancelSignIn': [{ name: 'oauth' }],
      'servers.signOut': [{ name: 'oauth' }, { name: 'bearer' }],
      'servers.export': [{ include_secrets: false }, { include_secrets: true }],
      'servers.importPreview': [
        { json: JSON.stringify({ mcpServers: { imp: { command: 'node', args: ['x'], env: { K: CANARIES.envNew } } } }) },
        { json: '{not json' },
        { json: JSON.stringify({ servers: { evil: { type: 'local', command: ['node'], env: { K: { secret: 'model:api_key' } } } } }) },
      ],
      'servers.import': [
        { json: JSON.stringify({ mcpServers: { imp: { command: process.execPath, args: sdkCommand().slice(1), env: { K: CANARIES.envNew } } } }), replace_existing: false },
        { json: JSON.stringify({ servers: { evil: { type: 'local', command: ['node'], env: { K: { secret: 'model:api_key' } } } } }), replace_existing: false },
      ],
      'settings.getModel': [{}],
      'settings.setModel': [
        { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' }, // key kept
        { provider: 'openai-compatible', base_url: 'not a url', model: 'fake', api_key: CANARIES.apiKey }, // invalid
      ],
      'profiles.list': [{}],
      'profiles.save': [
        { name: 'second', provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake', api_key: CANARIES.apiKey },
        { id: 'nope', name: 'x', provider: 'openai-compatible', base_url: 'not a url', model: 'm', api_key: CANARIES.apiKey }, // invalid
        { id: 'nope', name: 'x', provider: 'openai-compatible', base_url: model.baseUrl, model: 'm', api_key: CANARIES.apiKey }, // unknown id
      ],
      'profiles.test': [
        { provider: 'openai-compatible', base_url: model.baseUrl, api_key: CANARIES.apiKey },
        { provider: 'anthropic', base_url: 'http://127.0.0.1:9/v1', api_key: CANARIES.apiKey }, // unreachable
        { id: 'nope' },
      ],
      'profiles.setDefault': [{ id: 'nope' }],
      'profiles.remove': [{ id: 'nope' }],
      'profiles.detectLocal': [{}],
      'chat.send': [{ conversation_id: 'c1', text: 'call local__env_check {"name":"TOKEN","sha256":"0"}' }, { conversation_id: 'c1', text: '' }],
      'chat.editResend': [{ conversation_id: 'c1', item_id: 'nope', text: 'x' }, { conversation_id: 'bad id!', item_id: 'x', text: 'x' }],
      'chat.regenerate': [{ conversation_id: 'no-such-conversation' }],
      'chat.stop': [{ conversation_id: 'nope' }],
      'chat.cancelTool': [{ conversation_id: 'nope', call_id: 'nope' }],
      'conversations.list': [{}],
      'conversations.get': [{ id: 'c1' }, { id: 'missing' }],
      'conversations.rename': [{ id: 'c1', title: 'Renamed' }, { id: 'c1', title: '   ' }],
      'conversations.search': [{ query: 'env_check' }, { query: '"unbalanced AND (' }],
      'conversations.export': [{ id: 'c1', format: 'markdown' }, { id: 'c1', format: 'json' }, { id: 'missing', format: 'json' }],
      'conversations.remove': [{ id: 'missing' }],
      'conversations.setToolServers': [{ id: 'c1', servers: ['local'] }, { id: 'c1', servers: null }, { id: 'c1', servers: ['../x'] }],
      'conversations.setProfile': [{ id: 'c1', profile_id: null }, { id: 'c1', profile_id: 'no-such-profile' }, { id: 'missing', profile_id: null }],
      'elicitation.respond': [{ id: 'nope', action: 'accept', content: { k: CANARIES.envNew } }, { id: 'x', action: 'bogus' }],
      'sampling.respond': [{ id: 'nope', approve: true }, { id: 'x', approve: 'yes' }],
      'permissions.getMode': [{}, { extra: CANARIES.env }],
      'permissions.setMode': [{ mode: 'ask_all' }, { mode: 'bogus' }],
      'servers.setLogLevel': [{ name: 'local', level: 'debug' }, { name: 'missing', level: 'info' }, { name: 'local', level: 'loud' as 'info' }],
      'elicitation.respondUrl': [{ id: 'nope', action: 'accept' }],
      'roots.getDefault': [{}],
      'roots.setDefault': [{ roots: ['/tmp'] }, { roots: ['relative/x'] }, { roots: [] }],
      'roots.pickFolder': [{}],
      'roots.checkFolder': [{ path: '/tmp' }, { path: '~/nope-x' }, { path: 'relative' }],
      'servers.setToolSettings': [
        { name: 'local', tool: 'env_check', settings: { approval: 'always_allow' } },
        { name: 'local', tool: 'env_check', settings: { approval: null, enabled: 'no' } }, // invalid
        { name: 'missing', tool: 'x', settings: {} },
      ],
      'servers.bulkToolSettings': [
        { name: 'local', action: 'disable_all' },
        { name: 'local', action: 'enable_all' },
        { name: 'remote', action: 'allow_read_only' }, // not ready
      ],
      'servers.acceptToolDefinitions': [{ name: 'local' }, { name: 'local', tools: ['env_check'] }, { name: 'remote' }, { name: 'missing' }],
      'pins.getSettings': [{}],
      'pins.setSettings': [{ hold_unaccepted: false }, { hold_unaccepted: 'yes' }],
      'approvals.list': [{}],
      'approvals.respond': [
        { id: approvalId, decision: 'deny', reason: 'canary check' },
        { id: approvalId, decision: 'allow_once' }, // answered already
        { id: 'never-issued', decision: 'allow_once' },
        { id: 'x', decision: 'maybe', reason: CANARIES.envNew },
      ],
      'servers.remove': [{ name: 'imp' }, { name: 'missing' }],
      'catalog.getSettings': [{}],
      'catalog.setSettings': [{ registry_url: registry.url }, { registry_url: `http://evil.example/${CANARIES.env}` }],
      'catalog.search': [{ query: 'example' }, { query: CANARIES.env, include_deprecated: true }],
      'catalog.icon': [{ url: 'https://example.com/everything.png' }, { url: `http://127.0.0.1:9/${CANARIES.env}` }],
      'catalog.install': [
        { name: 'io.github.example/everything', version: '1.0.0', option: 'package:0', server_name: 'cat', values: { 'env:EVERYTHING_TOKEN': CANARIES.env } },
        { name: 'com.example/weather-remote', version: '2.0.0', option: 'remote:0', server_name: 'cat-remote', values: { 'url/base': 'http://127.0.0.1:9', 'header:X-Api-Key': CANARIES.header } },
        { name: 'io.github.example/everything', version: '1.0.0', option: 'package:0', server_name: 'cat-bad', values: { 'env:EVERYTHING_TOKEN': CANARIES.envNew, 'arg:package:0': 'not-a-choice' } },
      ],
      'catalog.diff': [{}],
      'catalog.update': [{ server_name: 'cat' }, { server_name: 'missing' }],
      'catalog.bundleInspect': [{ data_base64: Buffer.from(goodBundle()).toString('base64') }, { data_base64: Buffer.from(CANARIES.env).toString('base64') }],
      'catalog.fetchBundle': [{ name: 'io.github.example/nothing', version: '1.0.0', option: 'package:0' }, { name: 'io.github.example/everything', version: '1.0.0', option: 'package:0' }],
      'catalog.bundleInstall': [
        { token: bundleToken, server_name: 'bundle', values: { 'user_config:api_key': CANARIES.env } },
        { token: 'no-such-token', server_name: 'bundle2', values: { 'user_config:api_key': CANARIES.envNew } },
      ],
      // The recorded traffic of a server whose env and arguments hold canaries, and a replay with one.
      'inspector.list': [{ server: 'local' }, { server: 'argsec' }, { server: 'missing' }],
      'inspector.save': [{ server: 'local' }, { server: 'missing' }],
      'inspector.replay': [{ server: 'local', seq: 1, arguments: { token: CANARIES.env } }, { server: 'missing', seq: 1, arguments: {} }],
      'inspector.clear': [{ server: 'argsec' }, { server: 'missing' }],
      'inspector.setRecording': [{ server: 'argsec', on: true }, { server: 'missing', on: false }],
      'tasks.list': [{}, { conversation_id: 'c1' }],
      'tasks.cancel': [{ server: 'argsec', task_id: 'nope' }],
    };
    expect(Object.keys(samples).sort()).toEqual([...channelNames].sort());
    for (const channel of channelNames) {
      // The chat's tool call needs the (possibly just restarted) local server ready.
      if (channel === 'chat.send') await waitFor(() => core.host.view('local').state.kind === 'ready', 15_000);
      if (channel === 'servers.signIn') {
        // A sign-in waits for the browser; run them, let the flow reach its wait, then cancel.
        const running = samples[channel].map((input) => invoke(channel, input));
        await new Promise((r) => setTimeout(r, 1500));
        await invoke('servers.cancelSignIn', { name: 'oauth' });
        await Promise.all(running);
        continue;
      }
      if (channel === 'inspector.replay') {
        // A real replay of the chat's recorded tool call, with a canary in its arguments: the
        // recording, its live batches, the reply and the saved file must all be redacted.
        await core.permissions.setMode('never_ask');
        await waitFor(() => core.host.view('local').state.kind === 'ready', 15_000);
        const recorded = core.inspector.list('local').messages.find((m) => m.method === 'tools/call' && m.kind === 'request' && m.dir === 'out');
        expect(recorded).toBeDefined();
        const r = await invoke(channel, { server: 'local', seq: recorded!.seq, arguments: { name: 'TOKEN', sha256: CANARIES.env } });
        expect(r).toMatchObject({ ok: true, value: { kind: 'ok' } });
        expect(JSON.stringify(core.inspector.list('local').messages)).toContain('[redacted]');
        await invoke('inspector.save', { server: 'local' });
      }
      for (const input of samples[channel]) await invoke(channel, input);
      // The chat's run finishes before later samples change modes or disable its tool.
      if (channel === 'chat.send')
        expect(await waitFor(() => seen.some((s) => s.where === 'event chat.event' && s.text.includes('"conversation_id":"c1"') && /"type":"run-end"/.test(s.text)), 15_000)).toBe(true);
    }
    await invoke('no.such.channel', {});
    expect(await pendingAuth).toMatchObject({ allowed: false, reason: 'denied' });
    // Let the chat run and every restart finish, so their events are captured too.
    await waitFor(() => seen.some((s) => s.where === 'event chat.event' && s.text.includes('"conversation_id":"c1"') && /"type":"run-end"/.test(s.text)), 10_000);
    await core.host.whenStarted();
    await new Promise((r) => setTimeout(r, 500));

    // The secrets really are in use (the test would be empty otherwise).
    expect(model.requests.some((r) => r.authorization === `Bearer ${CANARIES.apiKey}`)).toBe(true);
    expect(seen.some((s) => s.where === 'event chat.event' && s.text.includes('"kind":"tool"') && s.text.includes('"state":"ok"'))).toBe(true);

    for (const s of seen) {
      const hit = findCanary(s.text);
      expect(hit, `canary ${hit} in ${s.where}: ${s.text.slice(0, 300)}`).toBeNull();
    }

    // Files: nothing but the encrypted vault (and the export the user explicitly asked to contain
    // secrets) holds a canary.
    const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));
    const files = walk(dir);
    expect(files.some((f) => f.endsWith('secrets.vault'))).toBe(true);
    for (const f of files) {
      if (f.endsWith('secrets.vault') || f.includes(`${path.sep}exports${path.sep}`)) continue;
      const hit = findCanary(readFileSync(f, 'latin1'));
      expect(hit, `canary ${hit} in file ${path.relative(dir, f)}`).toBeNull();
    }
    const vault = readFileSync(files.find((f) => f.endsWith('secrets.vault'))!, 'latin1');
    expect(findCanary(vault)).toBeNull(); // encrypted, not merely stored
    // A saved inspector recording is redacted like everything else.
    const recordings = files.filter((f) => path.basename(f).startsWith('inspector-'));
    expect(recordings.length).toBeGreaterThan(0);
    for (const f of recordings) expect(findCanary(readFileSync(f, 'latin1')), `canary in ${path.basename(f)}`).toBeNull();
    const exportFile = files.find((f) => f.includes(`${path.sep}exports${path.sep}`) && path.basename(f).startsWith('mcp_servers'));
    expect(exportFile && readFileSync(exportFile, 'utf8')).toContain(CANARIES.env); // the explicit export does hold them
    expect(errors).toEqual([]);
  }, 90_000);

  it('an import may not reference stored secrets', async () => {
    const d = createDispatcher(core);
    const r = await d.invoke('servers.importPreview', { json: JSON.stringify({ servers: { evil: { type: 'local', command: ['node'], env: { K: { secret: 'model:api_key' } } } } }) });
    expect(r.ok).toBe(true);
    if (r.ok) {
      const v = r.value as { servers: unknown[]; warning: string | null };
      expect(v.servers).toEqual([]);
      expect(v.warning).toMatch(/env\.K must be a string/);
    }
  });
});
