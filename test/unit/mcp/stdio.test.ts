/**
 * The managed stdio transport against real processes: whole process trees end on close, non-JSON
 * stdout lines are kept whole, large messages pass, oversized ones are dropped with a log line,
 * multi-byte characters split across reads survive, invalid UTF-8 does not break the stream, and
 * stderr lines are bounded.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { LineSplitter, ManagedStdioTransport, MAX_STDERR_LINE } from '../../../main/mcp/stdio.js';
import { McpConnection } from '../../../main/mcp/connection.js';
import type { LocalServerConfig } from '../../../main/mcp/config.js';
import { ROOT, SDK_SERVER, isAlive, makeTempDir, removeDir, waitFor, waitGone } from '../helpers.js';

const WRAPPER = path.join(ROOT, 'test', 'fixtures', 'tree-wrapper.mjs');
let dir: string | undefined;
const open: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await removeDir(dir);
  dir = undefined;
});

function transportFor(args: string[], extra: Partial<ConstructorParameters<typeof ManagedStdioTransport>[0]> = {}): ManagedStdioTransport {
  const t = new ManagedStdioTransport({ command: process.execPath, args, env: { ...(process.env as Record<string, string>) }, ...extra });
  open.push(t);
  return t;
}

describe('LineSplitter', () => {
  it('joins a multi-byte character split across chunks and keeps invalid UTF-8 from breaking later lines', () => {
    const lines: string[] = [];
    const s = new LineSplitter(1024, (b) => lines.push(b.toString('utf8')), () => undefined);
    const text = Buffer.from('héllo 世界 🎉\n', 'utf8');
    for (let i = 0; i < text.length; i++) s.push(text.subarray(i, i + 1)); // one byte per read
    s.push(Buffer.from([0xff, 0xfe, 0x0a])); // invalid UTF-8 line
    s.push(Buffer.from('next\n'));
    expect(lines[0]).toBe('héllo 世界 🎉');
    expect(lines[1]).toContain('\ufffd');
    expect(lines[2]).toBe('next');
  });

  it('drops a line over the limit, reports its size, and resumes at the next line', () => {
    const lines: string[] = [];
    const over: number[] = [];
    const s = new LineSplitter(10, (b) => lines.push(b.toString()), (d) => over.push(d.bytes));
    s.push(Buffer.from('0123456789ABCDEF'));
    s.push(Buffer.from('GH\nok\n'));
    expect(over).toEqual([18]);
    expect(lines).toEqual(['ok']);
  });

  it('keeps the first and last bytes of a dropped line, across chunks', () => {
    const dropped: Array<{ head: string; tail: string }> = [];
    const s = new LineSplitter(8, () => undefined, (d) => dropped.push({ head: d.head.toString(), tail: d.tail.toString() }), 4);
    for (const part of ['ab', 'cd', 'ef', 'gh', 'ij', 'kl', 'mn\nok\n']) s.push(Buffer.from(part));
    expect(dropped).toEqual([{ head: 'abcd', tail: 'klmn' }]);
  });
});

describe('ManagedStdioTransport', () => {
  it('keeps a non-JSON banner line whole in the noise log and still connects', async () => {
    const noise: string[] = [];
    const t = transportFor([SDK_SERVER, '--banner'], { onNoise: (l) => noise.push(l) });
    const client = new Client({ name: 't', version: '1' });
    await client.connect(t);
    expect(noise).toContain('Welcome to the fixture server! (this line is not JSON)');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('passes a 30 MB tool result intact (under the default line limit)', async () => {
    const t = transportFor([SDK_SERVER]);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(t);
    const r = await client.callTool({ name: 'huge', arguments: { bytes: 30 * 1024 * 1024 } }, { timeout: 60_000 });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect(text.length).toBe(30 * 1024 * 1024);
    await client.close();
  }, 60_000);

  it('drops a message over maxMessageBytes: the call it answers fails at once with a clear error (not by timeout), the connection survives', async () => {
    const t = transportFor([SDK_SERVER], { maxMessageBytes: 1024 * 1024 });
    const client = new Client({ name: 't', version: '1' });
    const errors: string[] = [];
    client.onerror = (e) => errors.push(e.message);
    await client.connect(t);
    // The SDK's server writes `id` last in a response; the request timeout is far away.
    const failure = await client.callTool({ name: 'huge', arguments: { bytes: 2 * 1024 * 1024 } }, { timeout: 120_000 }).then(
      () => null,
      (e: unknown) => e as { code?: unknown; message: string; data?: unknown },
    );
    expect(failure?.code).toBe(-32603);
    expect(failure?.message).toMatch(/reply was 2\.0 MB, over the 1\.0 MB one message may have/);
    expect(failure?.data).toMatchObject({ reason: 'message_too_large', limit: 1024 * 1024 });
    expect(errors.some((e) => /Dropped a stdout message of \d+ bytes/.test(e))).toBe(true);
    const ok = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect((ok.content as Array<{ text: string }>)[0]!.text).toBe('still here');
    await client.close();
  });

  it('bounds stderr lines', async () => {
    const lines: string[] = [];
    const t = transportFor(['-e', `process.stderr.write('x'.repeat(${MAX_STDERR_LINE * 2}) + '\\n' + 'short\\n'); setTimeout(() => {}, 200)`], {
      onStderr: (l) => lines.push(l),
    });
    await t.start();
    expect(await waitFor(() => lines.includes('short'), 3000)).toBe(true);
    expect(lines[0]!.length).toBeLessThanOrEqual(MAX_STDERR_LINE + 1);
  });

  it('reports the exit code of a server that dies', async () => {
    const t = transportFor(['-e', 'process.exit(7)']);
    let closed = false;
    t.onclose = () => (closed = true);
    await t.start();
    expect(await waitFor(() => closed, 3000)).toBe(true);
    expect(t.exit).toEqual({ code: 7, signal: null });
  });

  it('close() ends the whole process tree of a wrapper (like npx) and its grandchild', async () => {
    dir = makeTempDir();
    const pidFile = path.join(dir, 'pid');
    const t = transportFor([WRAPPER, '--hang'], { env: { ...(process.env as Record<string, string>), TREE_PID_FILE: pidFile } });
    await t.start();
    const wrapperPid = t.pid!;
    expect(await waitFor(() => { try { return readFileSync(pidFile, 'utf8').length > 0; } catch { return false; } }, 5000)).toBe(true);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(grandchild)).toBe(true);
    await t.close();
    expect(await waitGone(wrapperPid, 3000)).toBe(true);
    expect(await waitGone(grandchild, 3000)).toBe(true);
  });
});

describe('McpConnection over a wrapper', () => {
  it('a ready server started through a wrapper leaves no grandchild after close()', async () => {
    dir = makeTempDir();
    const pidFile = path.join(dir, 'pid');
    const cfg: LocalServerConfig = { type: 'local', command: [process.execPath, WRAPPER], env: { TREE_PID_FILE: pidFile }, enabled: true, timeout_seconds: 10 };
    const conn = new McpConnection('tree', cfg);
    open.push(conn);
    await conn.start();
    expect(conn.status).toBe('ready');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(grandchild)).toBe(true);
    await conn.close();
    expect(await waitGone(grandchild, 3000)).toBe(true);
  });
});
