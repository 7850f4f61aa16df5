/**
 * ipc/dispatch: every malformed IPC request becomes a typed error envelope (never a throw), and
 * internal errors map to code 'internal' without leaking their message. Uses a real AppCore over
 * a temp state dir (no server processes are started).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelNames, type Envelope, type IpcError } from '../../../preload/contract/index.js';
import { AppCore } from '../../../main/core.js';
import { createDispatcher, toIpcError, type Dispatcher } from '../../../main/ipc/dispatch.js';
import { HostError } from '../../../main/mcp/host.js';
import { ConversationBusyError, NotEditableError } from '../../../main/chat/agent.js';
import { ExportWriteError } from '../../../main/chat/conversations/service.js';
import {
  AuthorizationDeniedError,
  CallbackTimeoutError,
  CancelledError,
  InteractionRequiredError,
  IssuerMismatchSignInError,
  OAuthFetchRefusedError,
  OAuthFlowError,
  OAuthServerRefusedError,
  PortInUseError,
  UnsafeUrlError,
} from '../../../main/mcp/oauth/errors.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { makeTempDir, removeDir } from '../helpers.js';

let dir: string;
let core: AppCore;
let dispatcher: Dispatcher;
let internal: Array<{ channel: string; err: unknown }>;

beforeEach(async () => {
  dir = makeTempDir('op-dispatch-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  await core.start();
  internal = [];
  dispatcher = createDispatcher(core, (channel, err) => internal.push({ channel, err }));
});

afterEach(async () => {
  await core.shutdown();
  await removeDir(dir);
});

function errorOf(env: Envelope<unknown>): IpcError {
  expect(env.ok).toBe(false);
  if (env.ok) throw new Error('expected an error envelope');
  return env.error;
}

const MB10 = 'a'.repeat(10 * 1024 * 1024);

describe('unknown channels', () => {
  it.each([['nope'], ['servers.delete'], [''], ['__proto__'], ['constructor'], ['toString'], ['hasOwnProperty'], [42], [null], [undefined], [{}], [['app.info']], [MB10]])(
    'channel %# → unknown_channel',
    async (channel) => {
      const e = errorOf(await dispatcher.invoke(channel, {}));
      expect(e.code).toBe('unknown_channel');
      expect(e.message.length).toBeLessThan(200);
    },
  );
});

describe('malformed input', () => {
  it('a valid request works (baseline)', async () => {
    expect(await dispatcher.invoke('servers.list', {})).toEqual({ ok: true, value: [] });
    expect(await dispatcher.invoke('servers.list', undefined)).toEqual({ ok: true, value: [] });
    const info = await dispatcher.invoke('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { shell: 'browser', state_dir: dir, warnings: [] } });
  });

  it.each([['a string'], [42], [null], [true], [[]], [['name']], [Symbol.iterator.toString()]])('non-object input %# → invalid_input', async (input) => {
    for (const channel of ['servers.get', 'app.info', 'chat.send']) {
      const e = errorOf(await dispatcher.invoke(channel, input));
      expect(e.code).toBe('invalid_input');
    }
  });

  it('every channel rejects a non-object input with invalid_input', async () => {
    for (const channel of channelNames) {
      const e = errorOf(await dispatcher.invoke(channel, 'x'));
      expect(e.code, channel).toBe('invalid_input');
    }
  });

  it('wrong types → invalid_input naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['servers.get', { name: 5 }, 'name'],
      ['servers.setEnabled', { name: 'a', enabled: 'yes' }, 'enabled'],
      ['servers.add', { name: 'a', config: { type: 'local', command: 'npx server' } }, 'config.command'],
      ['servers.add', { name: 'a', config: { type: 'local', command: [] } }, 'config.command'],
      ['servers.add', { name: 'a', config: { type: 'local', command: ['x'], env: { OK: 'v', BAD: 5 } } }, 'config.env.BAD'],
      ['servers.add', { name: 'a', config: { type: 'local', command: ['x'], timeout_seconds: 1.5 } }, 'config.timeout_seconds'],
      ['servers.add', { name: 'a', config: { type: 'ftp', url: 'ftp://x' } }, 'config.type'],
      ['servers.add', { name: 'a', config: { type: 'http', url: 'not a url' } }, 'config.url'],
      ['servers.update', { name: 'a', patch: { env: { '1BAD': 'x' } } }, 'patch.env.1BAD'],
      ['servers.add', { name: 'bad name!', config: { type: 'local', command: ['x'] } }, 'name'],
      ['chat.send', { conversation_id: 'c', text: '' }, 'text'],
      ['chat.stop', { conversation_id: 7 }, 'conversation_id'],
      ['conversations.get', { id: '../etc' }, 'id'],
      ['settings.setModel', { provider: 'other', base_url: 'http://x', model: 'm' }, 'provider'],
      ['servers.acceptToolDefinitions', { name: 'a', tools: 'write_note' }, 'tools'],
      ['servers.acceptToolDefinitions', { name: 'a', tools: [''] }, 'tools.0'],
      ['servers.acceptToolDefinitions', { name: '@host' }, 'name'],
      ['pins.setSettings', { hold_unaccepted: 'yes' }, 'hold_unaccepted'],
    ];
    for (const [channel, input, field] of cases) {
      const e = errorOf(await dispatcher.invoke(channel, input));
      expect(e.code, `${channel} ${JSON.stringify(input)}`).toBe('invalid_input');
      expect(e.field, `${channel} ${JSON.stringify(input)}`).toBe(field);
    }
  });

  it('missing fields → invalid_input', async () => {
    for (const [channel, input] of [
      ['servers.get', {}],
      ['servers.add', { name: 'a' }],
      ['servers.update', { name: 'a' }],
      ['chat.send', { text: 'hi' }],
      ['servers.acceptToolDefinitions', { tools: ['x'] }],
      ['pins.setSettings', {}],
    ] as const) {
      expect(errorOf(await dispatcher.invoke(channel, input)).code).toBe('invalid_input');
    }
  });

  it('extra fields → invalid_input (strict schemas), also nested', async () => {
    for (const [channel, input] of [
      ['app.info', { extra: 1 }],
      ['servers.get', { name: 'a', extra: true }],
      ['servers.add', { name: 'a', config: { type: 'local', command: ['x'], cwd: '/' } }],
      ['servers.update', { name: 'a', patch: { command: ['x'], shell: true } }],
      ['servers.get', { name: 'a', __proto__: { polluted: 1 }, constructor: 'x' }],
    ] as const) {
      const e = errorOf(await dispatcher.invoke(channel, input));
      expect(e.code, JSON.stringify(input)).toBe('invalid_input');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('huge strings (10 MB) → invalid_input with a short message, never a throw', async () => {
    const cases: Array<[string, unknown]> = [
      ['servers.get', { name: MB10 }],
      ['servers.add', { name: 'a', config: { type: 'local', command: [MB10] } }],
      ['servers.add', { name: 'a', config: { type: 'local', command: ['x'], env: { K: MB10 } } }],
      ['servers.add', { name: 'a', config: { type: 'http', url: `https://x.example/${MB10}` } }],
      ['chat.send', { conversation_id: 'c', text: MB10 }],
      ['chat.send', { conversation_id: MB10, text: 'hi' }],
      ['settings.setModel', { provider: 'openai-compatible', base_url: 'http://x', model: 'm', api_key: MB10 }],
      // A huge unknown field name and a huge env variable name must not be echoed back in full.
      ['servers.get', { name: 'a', [MB10]: 1 }],
      ['servers.add', { name: 'a', config: { type: 'local', command: ['x'], env: { [`${MB10}-`]: 'v' } } }],
    ];
    for (const [channel, input] of cases) {
      const t0 = performance.now();
      const e = errorOf(await dispatcher.invoke(channel, input));
      expect(e.code, channel).toBe('invalid_input');
      expect(e.message.length, channel).toBeLessThan(1024);
      expect((e.field ?? '').length, channel).toBeLessThan(1024);
      expect(performance.now() - t0).toBeLessThan(5000);
    }
    expect(core.config.names()).toEqual([]);
  });

  it("a view's instance id and log data are checked: a malformed id or oversized log data → invalid_input; an id main never issued → forbidden; nothing kept", async () => {
    for (const view_instance of ['short', 'has spaces in it', 'x'.repeat(129), '../../etc/passwd']) {
      expect(errorOf(await dispatcher.invoke('apps.releaseView', { view_instance })).code, view_instance).toBe('invalid_input');
      expect(errorOf(await dispatcher.invoke('apps.readResource', { uri: 'ui://x', view_instance })).code, view_instance).toBe('invalid_input');
    }
    expect(await dispatcher.invoke('apps.releaseView', { view_instance: 'a1b2c3d4-e5f6' })).toEqual({ ok: true, value: { aborted: 0 } });
    const e = errorOf(await dispatcher.invoke('apps.log', { view_instance: 'a1b2c3d4-e5f6', level: 'info', data: { text: 'x'.repeat(70_000) } }));
    expect(e).toMatchObject({ code: 'invalid_input', field: 'data' });
    expect(errorOf(await dispatcher.invoke('apps.log', { view_instance: 'a1b2c3d4-e5f6', level: 'loud', data: 'x' })).code).toBe('invalid_input');
    // The old request shapes (a view naming its server and call) are no longer accepted.
    expect(errorOf(await dispatcher.invoke('apps.log', { server: 'a', level: 'info', data: 'x' })).code).toBe('invalid_input');
    expect(errorOf(await dispatcher.invoke('apps.callTool', { conversation_id: 'c', server: 'a', view_call_id: 'x', view_instance: 'a1b2c3d4-e5f6', tool: 't', arguments: {} })).code).toBe('invalid_input');
    // A made-up instance reaches nothing.
    for (const [channel, input] of [
      ['apps.log', { view_instance: 'a1b2c3d4-e5f6', level: 'info', data: { n: 1 } }],
      ['apps.callTool', { view_instance: 'a1b2c3d4-e5f6', tool: 't', arguments: {} }],
      ['apps.readResource', { view_instance: 'a1b2c3d4-e5f6', uri: 'ui://x' }],
      ['apps.updateModelContext', { view_instance: 'a1b2c3d4-e5f6', text: 'x' }],
    ] as const)
      expect(errorOf(await dispatcher.invoke(channel, input)).code, channel).toBe('forbidden');
  });

  it('inspector channels: bad shapes → invalid_input; an unknown server → not_found; a seq that is not a recorded tools/call → invalid_input', async () => {
    for (const [channel, input] of [
      ['inspector.list', { server: '../x' }],
      ['inspector.list', { server: 'a', extra: 1 }],
      ['inspector.save', {}],
      ['inspector.replay', { server: 'a', seq: 0, arguments: {} }],
      ['inspector.replay', { server: 'a', seq: 1.5, arguments: {} }],
      ['inspector.replay', { server: 'a', seq: 1, arguments: [] }],
      ['inspector.replay', { server: 'a', seq: 1, arguments: { big: MB10 } }],
      ['inspector.setRecording', { server: 'a' }],
      ['inspector.setRecording', { server: 'a', on: 'no' }],
      ['inspector.setRecording', { server: 'a', on: false, extra: 1 }],
    ] as const)
      expect(errorOf(await dispatcher.invoke(channel, input)).code, `${channel} ${JSON.stringify(input).slice(0, 80)}`).toBe('invalid_input');
    expect(errorOf(await dispatcher.invoke('inspector.list', { server: 'missing' })).code).toBe('not_found');
    expect(errorOf(await dispatcher.invoke('inspector.replay', { server: 'missing', seq: 1, arguments: {} })).code).toBe('not_found');
    expect(errorOf(await dispatcher.invoke('inspector.setRecording', { server: 'missing', on: false })).code).toBe('not_found');
  });

  it('deeply nested or cyclic-looking junk → invalid_input', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(errorOf(await dispatcher.invoke('servers.add', { name: 'a', config: deep })).code).toBe('invalid_input');
    expect(errorOf(await dispatcher.invoke('servers.update', { name: 'a', patch: { env: deep } })).code).toBe('invalid_input');
  });
});

describe('errors from handlers', () => {
  it('HostError maps to its typed code and field', async () => {
    expect(errorOf(await dispatcher.invoke('servers.get', { name: 'missing' }))).toEqual({ code: 'not_found', message: 'No server named "missing".', fact: { kind: 'server_unavailable', server: 'missing', why: 'unknown' } });
    const e = errorOf(await dispatcher.invoke('servers.add', { name: 'x', config: { type: 'local', command: ['no-such-command-xyz'] } }));
    expect(e).toMatchObject({ code: 'command_not_found', field: 'command' });
    expect(internal).toEqual([]);
  });

  it('a refusal the window words carries its facts, never only a sentence: a command not on the PATH, a taken name, a refused field, pasted text that is no config', async () => {
    const notFound = errorOf(await dispatcher.invoke('servers.add', { name: 'x', config: { type: 'local', command: ['no-such-command-xyz', '--flag'] } }));
    expect(notFound.fact).toEqual({ kind: 'server_failure', failure: { kind: 'spawn_failed', command: 'no-such-command-xyz', code: 'not_on_path', server_message: null }, stderr: [] });
    await dispatcher.invoke('servers.add', { name: 'Files', config: { type: 'local', command: [process.execPath, '-e', '1'], enabled: false } });
    expect(errorOf(await dispatcher.invoke('servers.add', { name: 'files', config: { type: 'local', command: [process.execPath, '-e', '1'], enabled: false } }))).toMatchObject({
      code: 'conflict',
      field: 'name',
      fact: { kind: 'name_taken', name: 'files', existing: 'Files', why: 'same' },
    });
    expect(errorOf(await dispatcher.invoke('servers.update', { name: 'Files', patch: { url: 'https://example.com/mcp' } }))).toMatchObject({ code: 'invalid_input', issue: { code: 'custom', path: [], rule: 'not_for_type' } });
    expect(errorOf(await dispatcher.invoke('servers.importPreview', { json: '[1,2]' }))).toMatchObject({ code: 'invalid_input', field: 'json', fact: { kind: 'import', problem: 'not_object' } });
    expect(errorOf(await dispatcher.invoke('servers.importPreview', { json: '{"mcpServers": ' }))).toMatchObject({ code: 'invalid_input', field: 'json', fact: { kind: 'import', problem: 'not_json' } });
    expect(internal).toEqual([]);
  });

  it('chat without a model → not_configured', async () => {
    expect(errorOf(await dispatcher.invoke('chat.send', { conversation_id: 'c', text: 'hi' }))).toMatchObject({ code: 'not_configured', fact: { kind: 'no_model' } });
  });

  it('Sign in or Sign out on a server without OAuth: its name as the fact (no_sign_in)', async () => {
    await dispatcher.invoke('servers.add', { name: 'local', config: { type: 'local', command: [process.execPath, '-e', '1'], enabled: false } });
    for (const channel of ['servers.signIn', 'servers.signOut'])
      expect(errorOf(await dispatcher.invoke(channel, { name: 'local' })), channel).toMatchObject({ code: 'invalid_input', fact: { kind: 'no_sign_in', server: 'local' } });
    expect(internal).toEqual([]);
  });

  it('model profiles and conversations refuse by facts and issues: a taken profile name, an unknown profile, a test without an address, an unknown conversation, an empty title', async () => {
    const profile = { name: 'Local', provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'm' };
    expect((await dispatcher.invoke('profiles.save', profile)).ok).toBe(true);
    expect(errorOf(await dispatcher.invoke('profiles.save', { ...profile, name: ' local ' }))).toMatchObject({ code: 'conflict', field: 'name', fact: { kind: 'profile_name_taken', name: 'local' } });
    for (const [channel, input] of [['profiles.remove', { id: 'nope' }], ['profiles.setDefault', { id: 'nope' }], ['profiles.test', { id: 'nope' }]] as const)
      expect(errorOf(await dispatcher.invoke(channel, input)), channel).toMatchObject({ code: 'not_found', fact: { kind: 'profile_unknown' } });
    expect(errorOf(await dispatcher.invoke('profiles.test', {}))).toMatchObject({ code: 'invalid_input', field: 'provider', issue: { code: 'custom', path: ['provider'], rule: 'required' } });
    expect(errorOf(await dispatcher.invoke('conversations.rename', { id: 'nope', title: 'x' }))).toMatchObject({ code: 'not_found', fact: { kind: 'conversation_unknown' } });
    core.conversationStore.ensure('c1', 'hello');
    expect(errorOf(await dispatcher.invoke('conversations.rename', { id: 'c1', title: ' \n ' }))).toMatchObject({ code: 'invalid_input', field: 'title', issue: { code: 'custom', path: ['title'], rule: 'required' } });
    expect(internal).toEqual([]);
  });

  it('an unexpected error maps to internal without leaking its message; it is reported to the log hook', async () => {
    const boom = new Error('ENOENT: /home/alice/.secret/token sk-live-0123456789');
    core.host.list = () => {
      throw boom;
    };
    const e = errorOf(await dispatcher.invoke('servers.list', {}));
    expect(e.code).toBe('internal');
    expect(e.message).not.toContain('sk-live');
    expect(e.message).not.toContain('alice');
    expect(e.field).toBeUndefined();
    expect(internal).toEqual([{ channel: 'servers.list', err: boom }]);
  });

  it('async rejections and non-Error throws are mapped too', async () => {
    core.host.logs = () => {
      throw 'a plain string with sk-secret';
    };
    (core.host as unknown as { restart: () => Promise<never> }).restart = async () => Promise.reject(Object.assign(new Error('sk-secret-2'), { code: 'not_found' }));
    const a = errorOf(await dispatcher.invoke('servers.logs', { name: 'x' }));
    const b = errorOf(await dispatcher.invoke('servers.restart', { name: 'x' }));
    for (const e of [a, b]) {
      expect(e.code).toBe('internal');
      expect(e.message).not.toContain('sk-secret');
    }
    expect(internal.map((i) => i.channel)).toEqual(['servers.logs', 'servers.restart']);
  });

  it('the chat’s classes carry their facts: a busy conversation, a message that cannot be edited, a file that cannot be written', () => {
    expect(toIpcError(new ConversationBusyError())).toMatchObject({ code: 'busy', fact: { kind: 'conversation_busy' } });
    expect(toIpcError(new NotEditableError())).toMatchObject({ code: 'conflict', fact: { kind: 'not_editable' } });
    expect(toIpcError(new ExportWriteError('/x/a.md', 'EROFS'))).toEqual({ code: 'write_failed', message: 'Could not write /x/a.md: the disk is read-only.', fact: { kind: 'write_failed', path: '/x/a.md', errno: 'EROFS' } });
  });

  it('every sign-in error carries its failure by code (main/mcp/oauth/errors.ts), two that fell through to internal included', () => {
    const signIns: Array<[Error, IpcError['code'], unknown]> = [
      [new CancelledError(), 'sign_in_cancelled', { code: 'cancelled' }],
      [new CallbackTimeoutError(300_000), 'sign_in_timeout', { code: 'timeout', seconds: 300 }],
      [new PortInUseError(8123), 'port_in_use', { code: 'port_in_use', port: 8123 }],
      [new AuthorizationDeniedError('access_denied', 'No thanks'), 'sign_in_denied', { code: 'denied', oauth_error: 'access_denied', said: 'No thanks' }],
      // These two used to fall through to `internal` ("Something went wrong in the app core").
      [new OAuthServerRefusedError('invalid_grant', 'request'), 'oauth_failed', { code: 'refused', step: 'request', oauth_error: 'invalid_grant', said: null }],
      [new IssuerMismatchSignInError('metadata'), 'unsafe_authorization_url', { code: 'issuer_mismatch', where: 'metadata' }],
      [new UnsafeUrlError('…', 'authorization_url', null, 'http://evil.example'), 'unsafe_authorization_url', { code: 'unsafe_url', what: 'authorization_url', field: null, url: 'http://evil.example' }],
      [new OAuthFetchRefusedError('…', 'private_address', 'http://10.0.0.1'), 'oauth_failed', { code: 'fetch_refused', why: 'private_address', url: 'http://10.0.0.1', max_bytes: null }],
      [new InteractionRequiredError('needs_reauth'), 'oauth_failed', { code: 'needs_browser', reason: 'needs_reauth' }],
      [new OAuthFlowError('no_tokens', 'The authorization server did not issue tokens.'), 'oauth_failed', { code: 'no_tokens' }],
      [new OAuthFlowError('failed', 'Sign-in failed: fetch failed', 'TypeError', 'fetch failed'), 'oauth_failed', { code: 'failed', said: 'fetch failed' }],
    ];
    for (const [err, code, failure] of signIns) expect(toIpcError(err), err.name).toMatchObject({ code, fact: { kind: 'sign_in', failure } });
  });

  it('toIpcError keeps HostError messages and drops everything else', () => {
    expect(toIpcError(new HostError('conflict', 'A server named "a" already exists.', 'name'))).toEqual({ code: 'conflict', message: 'A server named "a" already exists.', field: 'name' });
    for (const v of [new TypeError('x secret'), null, undefined, 42, { code: 'conflict', message: 'forged secret' }]) {
      expect(toIpcError(v)).toEqual({ code: 'internal', message: 'Internal error. See the app log for details.' });
    }
  });
});
