/**
 * "Test connection" and model listing against real fake endpoints on loopback (OpenAI-compatible
 * and Anthropic): the list comes back; a wrong URL, a wrong key, an HTML page and a hang each get
 * their code and a plain message; the right key goes to the right endpoint in the right header;
 * a key for http:// to another machine gets the clear-text warning; local-model detection offers
 * only servers that answer, at configurable addresses.
 */
import http from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearTextKeyWarning, listModels, testConnection } from '../../../main/chat/model-list.js';
import { detectLocalModels, probesFromEnv, DEFAULT_LOCAL_PROBES } from '../../../main/chat/local-models.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';

let openai: FakeModel;
let anthropic: FakeAnthropic;
let closedPort: number;
beforeAll(async () => {
  openai = await startFakeModel({ models: ['gpt-4o-mini', 'llama3.1:8b', 'llava:7b'], requireKey: 'sk-openai-right-000000' });
  anthropic = await startFakeAnthropic({ models: ['claude-3-5-haiku', 'claude-sonnet-4-5', 'claude-opus-4-1'], requireKey: 'sk-ant-right-0000000000' });
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  closedPort = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

describe('testConnection', () => {
  it('OpenAI-compatible: lists the models with the bearer key, sorted, with image hints', async () => {
    const r = await testConnection({ provider: 'openai-compatible', base_url: `${openai.baseUrl}/`, apiKey: 'sk-openai-right-000000' });
    expect(r).toEqual({
      ok: true,
      warning: null,
      models: [
        { id: 'gpt-4o-mini', accepts_images: true, context_window: null },
        { id: 'llama3.1:8b', accepts_images: false, context_window: null },
        { id: 'llava:7b', accepts_images: true, context_window: null },
      ],
    });
    expect(openai.listRequests.at(-1)).toEqual({ authorization: 'Bearer sk-openai-right-000000' });
  });

  it('Anthropic: follows the pages, sends x-api-key and anthropic-version, never a bearer header', async () => {
    const r = await testConnection({ provider: 'anthropic', base_url: anthropic.baseUrl, apiKey: 'sk-ant-right-0000000000' });
    expect(r.ok && r.models.map((m) => m.id)).toEqual(['claude-3-5-haiku', 'claude-opus-4-1', 'claude-sonnet-4-5']);
    expect(anthropic.listRequests.length).toBe(2);
    for (const l of anthropic.listRequests) expect(l).toEqual({ apiKey: 'sk-ant-right-0000000000', version: '2023-06-01', authorization: undefined });
  });

  it('wrong key → unauthorized (401), for both providers', async () => {
    const a = await testConnection({ provider: 'openai-compatible', base_url: openai.baseUrl, apiKey: 'sk-wrong-00000000000' });
    expect(a).toMatchObject({ ok: false, code: 'unauthorized' });
    const b = await testConnection({ provider: 'anthropic', base_url: anthropic.baseUrl, apiKey: 'sk-wrong-00000000000' });
    expect(b).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(JSON.stringify([a, b])).not.toMatch(/sk-wrong/);
  });

  it('wrong URL path → not_found; nothing listening → unreachable', async () => {
    expect(await testConnection({ provider: 'openai-compatible', base_url: openai.baseUrl.replace('/v1', '/api'), apiKey: 'sk-openai-right-000000' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await testConnection({ provider: 'openai-compatible', base_url: `http://127.0.0.1:${closedPort}/v1` })).toMatchObject({ ok: false, code: 'unreachable' });
  });

  it('an HTML page (200 or 404) → html_page', async () => {
    const m = await startFakeModel({ fault: 'html-200' });
    try {
      expect(await testConnection({ provider: 'openai-compatible', base_url: m.baseUrl })).toMatchObject({ ok: false, code: 'html_page' });
      m.setFault('html-404');
      expect(await testConnection({ provider: 'openai-compatible', base_url: m.baseUrl })).toMatchObject({ ok: false, code: 'html_page' });
    } finally {
      await m.close();
    }
  });

  it('a hang → timeout, within the deadline', async () => {
    const m = await startFakeModel({ fault: 'hang' });
    try {
      expect(await testConnection({ provider: 'openai-compatible', base_url: m.baseUrl }, { timeoutMs: 300 })).toMatchObject({ ok: false, code: 'timeout', message: expect.stringMatching(/did not answer in time/) });
    } finally {
      await m.close();
    }
  });

  it('a JSON body that is not a model list → malformed_response', async () => {
    const srv = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    try {
      const r = await testConnection({ provider: 'openai-compatible', base_url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/v1` });
      expect(r).toMatchObject({ ok: false, code: 'malformed_response' });
    } finally {
      srv.close();
    }
  });

  it('a redirect is not followed: the key never reaches the other address', async () => {
    const seen: Array<string | undefined> = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"stolen"}]}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const to = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const redirector = http.createServer((req, res) => res.writeHead(302, { location: `${to}${req.url}` }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', () => r()));
    try {
      const r = await testConnection({ provider: 'openai-compatible', base_url: `http://127.0.0.1:${(redirector.address() as { port: number }).port}/v1`, apiKey: 'sk-redirect-000000000' });
      expect(r).toMatchObject({ ok: false, code: 'not_found' });
      expect(seen).toEqual([]);
    } finally {
      redirector.close();
      other.close();
    }
  });

  it('warns when a key would travel in clear (http:// to another machine), not for loopback or https', () => {
    expect(clearTextKeyWarning('http://192.168.1.20:8000/v1', true)).toMatch(/unencrypted/);
    expect(clearTextKeyWarning('http://models.example.com/v1', true)).toMatch(/unencrypted/);
    expect(clearTextKeyWarning('http://192.168.1.20:8000/v1', false)).toBeNull();
    expect(clearTextKeyWarning('http://127.0.0.1:11434/v1', true)).toBeNull();
    expect(clearTextKeyWarning('http://localhost:1234/v1', true)).toBeNull();
    expect(clearTextKeyWarning('https://api.openai.com/v1', true)).toBeNull();
  });

  it('listModels throws typed errors (for callers that want them)', async () => {
    await expect(listModels({ provider: 'openai-compatible', base_url: openai.baseUrl, apiKey: 'nope' })).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe('local model servers (first launch)', () => {
  it('offers the servers that answer with models, at the configured addresses only', async () => {
    const ollama = await startFakeModel({ models: ['llama3.2:3b', 'qwen2.5:7b'] });
    const emptyLm = await startFakeModel({ models: [] });
    try {
      const offers = await detectLocalModels([
        { kind: 'ollama', base_url: ollama.baseUrl },
        { kind: 'lmstudio', base_url: emptyLm.baseUrl }, // answers, but has no model: nothing to offer
        { kind: 'lmstudio', base_url: `http://127.0.0.1:${closedPort}/v1` }, // nothing there
      ]);
      expect(offers).toEqual([{ kind: 'ollama', label: 'Ollama', base_url: ollama.baseUrl, models: [{ id: 'llama3.2:3b', accepts_images: false, context_window: null }, { id: 'qwen2.5:7b', accepts_images: false, context_window: null }] }]);
      // Probes carry no key.
      expect(ollama.listRequests).toEqual([{ authorization: undefined }]);
    } finally {
      await ollama.close();
      await emptyLm.close();
    }
  });

  it('never probes another machine, and reads the addresses from the environment', async () => {
    // A server reachable on this machine's own network address answers over loopback, but the
    // same server through the non-loopback address is not probed.
    const lan = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (lan) {
      const srv = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"m"}]}'));
      await new Promise<void>((r) => srv.listen(0, '0.0.0.0', () => r()));
      const port = (srv.address() as { port: number }).port;
      try {
        expect(await detectLocalModels([{ kind: 'ollama', base_url: `http://127.0.0.1:${port}/v1` }])).toHaveLength(1);
        expect(await detectLocalModels([{ kind: 'ollama', base_url: `http://${lan}:${port}/v1` }])).toEqual([]);
      } finally {
        srv.close();
      }
    }
    expect(probesFromEnv(undefined)).toEqual(DEFAULT_LOCAL_PROBES);
    expect(probesFromEnv('none')).toEqual([]);
    expect(probesFromEnv('ollama=http://127.0.0.1:5000/v1, lmstudio=http://example.com/v1,bogus=http://127.0.0.1:1/v1')).toEqual([{ kind: 'ollama', base_url: 'http://127.0.0.1:5000/v1' }]);
  });
});
