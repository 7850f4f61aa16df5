/**
 * Server logs in main (docs/ARCHITECTURE.md "Protocol features"): a server's log notifications
 * (`notifications/message`) are pushed to the window as `servers.log` events as they arrive;
 * `logging/setLevel` reaches servers that declare `logging`; a flooding server is rate-limited:
 * what is over the limit is dropped and counted, and the counts add up exactly.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads, LogEntry } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { LiveLogRing, LOG_RATE } from '../../../../main/mcp/protocol/log-feed.js';
import { formatLogMessage } from '../../../../main/mcp/protocol/log-format.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, ROOT, sdkCommand, waitFor, waitNoChildren } from '../../helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FIXTURE = path.join(ROOT, 'test/fixtures/protocol-server.mjs');
let dir: string;
let core: AppCore;
let logs: Array<{ name: string; entry: LogEntry }>;

beforeEach(async () => {
  dir = makeTempDir('op-logs-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  logs = [];
  core.subscribe((event, payload) => {
    if (event === 'servers.log') {
      const p = payload as EventPayloads['servers.log'];
      for (const entry of p.entries) logs.push({ name: p.name, entry });
    }
  });
  await core.start();
});

afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

const serverEntries = (name: string): LogEntry[] => logs.filter((l) => l.name === name && l.entry.source === 'server').map((l) => l.entry);

describe('server logs', () => {
  it("server-everything's simulated logging is pushed as servers.log events; the level selector reaches it", async () => {
    await core.host.add('ev', { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'] });
    expect(await waitFor(() => core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    const view = core.host.view('ev');
    expect(view.protocol.logging).toEqual({ supported: true, level: null });
    expect(view.protocol.transport).toBe('stdio');
    // Lifecycle lines are pushed too (the view never needs a refresh).
    expect(await waitFor(() => logs.some((l) => l.name === 'ev' && l.entry.source === 'lifecycle' && l.entry.text.includes('ready')), 5000)).toBe(true);
    const d = createDispatcher(core);
    const set = await d.invoke('servers.setLogLevel', { name: 'ev', level: 'debug' });
    expect(set).toMatchObject({ ok: true, value: { protocol: { logging: { supported: true, level: 'debug' } } } });
    await core.host.callTool('ev__toggle-simulated-logging', {});
    // The first simulated message is sent at once.
    expect(await waitFor(() => serverEntries('ev').length >= 1, 10_000)).toBe(true);
    expect(serverEntries('ev')[0]!.text).toMatch(/^(debug|info|notice|warning|error|critical|alert|emergency): .*level.message/i);
    // The same entries are in the server's log for a later load.
    expect(core.host.logs('ev').some((e) => e.source === 'server')).toBe(true);
    // The chosen level is sent again when the server starts again.
    const before = core.host.connection('ev');
    await core.host.restart('ev');
    expect(await waitFor(() => core.host.connection('ev') !== before && core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    expect(await waitFor(() => core.host.view('ev').protocol.logging.level === 'debug', 10_000)).toBe(true);
  });

  it('a server without the logging capability refuses a level with a typed error', async () => {
    await core.host.add('plain', { type: 'local', command: sdkCommand() });
    expect(await waitFor(() => core.host.view('plain').state.kind === 'ready', 10_000)).toBe(true);
    expect(core.host.view('plain').protocol.logging.supported).toBe(false);
    const r = await createDispatcher(core).invoke('servers.setLogLevel', { name: 'plain', level: 'info' });
    // By fact, for the window to word: the server offers no log levels.
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', fact: { kind: 'no_log_levels', server: 'plain' } } });
    const bad = await createDispatcher(core).invoke('servers.setLogLevel', { name: 'plain', level: 'loud' as 'info' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('a flood is rate-limited: kept + counted drops add up to what the server sent', async () => {
    await core.host.add('fl', { type: 'local', command: [process.execPath, FIXTURE] });
    expect(await waitFor(() => core.host.view('fl').state.kind === 'ready', 10_000)).toBe(true);
    const sent = 600;
    await core.host.callTool('fl__flood', { count: sent });
    const droppedOf = (): number =>
      logs
        .filter((l) => l.name === 'fl' && l.entry.source === 'lifecycle')
        .map((l) => /^(\d+) log messages? from the server or its views were dropped/.exec(l.entry.text))
        .reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
    expect(await waitFor(() => serverEntries('fl').length + droppedOf() === sent, 10_000)).toBe(true);
    expect(droppedOf()).toBeGreaterThan(0);
    expect(serverEntries('fl').length).toBeLessThan(sent);
    expect(serverEntries('fl')[0]!.text).toBe('info flood: message 0');
  });
});

describe('LiveLogRing and formatLogMessage', () => {
  it('formats data that is not a string as JSON, and survives values that cannot be encoded', () => {
    expect(formatLogMessage({ level: 'error', data: { a: 1 } })).toBe('error: {"a":1}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(formatLogMessage({ level: 'warning', logger: 'db', data: cyclic })).toBe('warning db: [a value that could not be shown]');
  });

  it('never limits stderr or lifecycle lines, and a broken listener loses nothing', () => {
    const ring = new LiveLogRing(() => {
      throw new Error('listener broke');
    }, { perSecond: 1, burst: 1 });
    for (let i = 0; i < 10; i++) ring.push('stderr', `line ${i}`);
    expect(ring.all()).toHaveLength(10);
    ring.push('server', 'a');
    ring.push('server', 'b'); // over the burst: dropped
    expect(ring.all().filter((e) => e.source === 'server').map((e) => e.text)).toEqual(['a']);
    expect(LOG_RATE.burst).toBeGreaterThan(0);
  });

  it("a view's log messages share the server's rate limit (a chatty view cannot flood the log)", () => {
    const ring = new LiveLogRing(() => undefined, { perSecond: 1, burst: 2 });
    ring.push('view', 'info: from the view');
    ring.push('server', 'info: from the server');
    ring.push('view', 'info: one too many'); // over the burst: dropped
    expect(ring.all().map((e) => `${e.source} ${e.text}`)).toEqual(['view info: from the view', 'server info: from the server']);
  });

  it('pushes kept entries in batches, in order, none twice', async () => {
    const got: LogEntry[][] = [];
    const ring = new LiveLogRing((entries) => got.push(entries));
    for (let i = 0; i < 120; i++) ring.push('stderr', `line ${i}`);
    expect(await waitFor(() => got.flat().length === 120, 5000)).toBe(true);
    expect(got.flat().map((e) => e.text)).toEqual(Array.from({ length: 120 }, (_, i) => `line ${i}`));
    expect(got.length).toBeLessThan(120);
  });
});
