/**
 * Model-endpoint bad input, end to end against real HTTP servers on loopback: the real AI SDK
 * providers (through createModel's checked fetch) talk to fake endpoints that answer with an HTML
 * error page, an HTML 200 page, a plain body where a stream was asked for, malformed SSE, 401,
 * 404, a context-length error, nothing at all (hang), a stream that goes silent, or no server.
 * Each failure must be classified by describeModelError into its code and a plain message.
 */
import http from 'node:http';
import { streamText, generateText, APICallError, RetryError } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeModelError, ModelEndpointError } from '../../../main/chat/model-errors.js';
import { createModel } from '../../../main/chat/providers.js';
import { startFakeModel, type Fault, type FakeModel } from '../../fixtures/fake-model.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';

let fake: FakeModel;
let anthropic: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeModel();
  anthropic = await startFakeAnthropic({ requireKey: 'sk-ant-right-0000000000' });
});
afterAll(async () => {
  await fake.close();
  await anthropic.close();
});

const quick = { headersTimeoutMs: 800, idleTimeoutMs: 800 };

/** The first error a streamed answer produced (or null when it answered). */
async function streamFailure(baseUrl: string, apiKey = 'sk-test-000000000000', provider: 'openai-compatible' | 'anthropic' = 'openai-compatible'): Promise<unknown> {
  const r = streamText({ model: createModel({ provider, base_url: baseUrl, model: 'fake-1' }, apiKey, quick), prompt: 'hi', maxRetries: 0 });
  try {
    for await (const part of r.fullStream) if (part.type === 'error') return part.error;
  } catch (err) {
    return err;
  }
  return null;
}

async function codeFor(fault: Fault): Promise<string> {
  fake.setFault(fault);
  try {
    const err = await streamFailure(fake.baseUrl);
    expect(err, `fault ${fault} must fail`).not.toBeNull();
    return describeModelError(err).code;
  } finally {
    fake.setFault(null);
  }
}

describe('describeModelError against real endpoints', () => {
  it('a healthy endpoint answers (the fixture works)', async () => {
    expect(await streamFailure(fake.baseUrl)).toBeNull();
  });

  it('HTML error page → html_page', async () => {
    expect(await codeFor('html-404')).toBe('html_page');
  });

  it('HTML page with status 200 → html_page (not an empty answer)', async () => {
    expect(await codeFor('html-200')).toBe('html_page');
  });

  it('a non-streaming body where a stream was asked for → not_streaming', async () => {
    expect(await codeFor('plain-json')).toBe('not_streaming');
  });

  it('malformed SSE → malformed_response', async () => {
    expect(await codeFor('malformed-sse')).toBe('malformed_response');
  });

  it('a hang (no response headers) → timeout', async () => {
    expect(await codeFor('hang')).toBe('timeout');
  });

  it('a stream that goes silent → timeout', async () => {
    expect(await codeFor('stall')).toBe('timeout');
  });

  it('401 → unauthorized, with a message that says what to do', async () => {
    fake.setFault('unauthorized');
    try {
      const d = describeModelError(await streamFailure(fake.baseUrl));
      expect(d.code).toBe('unauthorized');
      expect(d.message).toMatch(/Settings → Model/);
      expect(d.message).not.toMatch(/sk-test/);
    } finally {
      fake.setFault(null);
    }
  });

  it('wrong base URL (404) → not_found', async () => {
    expect(describeModelError(await streamFailure(`${fake.baseUrl}/wrong`)).code).toBe('not_found');
  });

  it('the facts beside the code are typed, for the window to word: the HTTP status, the network code — never only inside the English message', async () => {
    const wrong = describeModelError(await streamFailure(`${fake.baseUrl}/wrong`));
    expect(wrong.detail).toMatchObject({ http_status: 404, system_code: null, redirected: false });
    const srv = http.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    expect(describeModelError(await streamFailure(`http://127.0.0.1:${port}/v1`)).detail).toEqual({ http_status: null, system_code: 'ECONNREFUSED', redirected: false, provider_message: null });
  });

  it('context length exceeded → context_length_exceeded, telling the user what to do', async () => {
    fake.setFault('context-length');
    try {
      const d = describeModelError(await streamFailure(fake.baseUrl));
      expect(d.code).toBe('context_length_exceeded');
      expect(d.message).toMatch(/new chat|Context window/);
    } finally {
      fake.setFault(null);
    }
  });

  it('nothing listening → unreachable', async () => {
    const srv = http.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    expect(describeModelError(await streamFailure(`http://127.0.0.1:${port}/v1`)).code).toBe('unreachable');
  });

  it('Anthropic: a wrong x-api-key → unauthorized; the right one answers', async () => {
    expect(describeModelError(await streamFailure(anthropic.baseUrl, 'sk-ant-wrong-000000000', 'anthropic')).code).toBe('unauthorized');
    expect(await streamFailure(anthropic.baseUrl, 'sk-ant-right-0000000000', 'anthropic')).toBeNull();
  });

  it('a redirect is not followed (the key stays with its endpoint) and is reported', async () => {
    const seen: Array<string | undefined> = [];
    const elsewhere = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', () => r()));
    const target = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
    const redirector = http.createServer((req, res) => res.writeHead(307, { location: `${target}${req.url}` }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', () => r()));
    try {
      const err = await streamFailure(`http://127.0.0.1:${(redirector.address() as { port: number }).port}/v1`, 'sk-redirect-secret-0000');
      expect(describeModelError(err).code).toBe('not_found');
      expect(seen).toEqual([]);
    } finally {
      redirector.close();
      elsewhere.close();
    }
  });

  it('generateText (non-streaming) failures are classified too, also inside a RetryError', async () => {
    fake.setFault('unauthorized');
    try {
      const err = await generateText({ model: createModel({ provider: 'openai-compatible', base_url: fake.baseUrl, model: 'm' }, 'k', quick), prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
      expect(describeModelError(err).code).toBe('unauthorized');
    } finally {
      fake.setFault(null);
    }
    const inner = new APICallError({ message: 'x', url: 'http://x', requestBodyValues: {}, statusCode: 503, isRetryable: true });
    expect(describeModelError(new RetryError({ message: 'r', reason: 'maxRetriesExceeded', errors: [inner] })).code).toBe('server_error');
  });

  it('classifies by type and fields, not message text', () => {
    expect(describeModelError(new ModelEndpointError('timeout', 'whatever words')).code).toBe('timeout');
    expect(describeModelError(new Error('401 Unauthorized html context_length_exceeded')).code).toBe('unknown');
    const e429 = new APICallError({ message: 'x', url: 'http://x', requestBodyValues: {}, statusCode: 429, isRetryable: true });
    expect(describeModelError(e429).code).toBe('rate_limited');
    const anth413 = new APICallError({ message: 'x', url: 'http://x', requestBodyValues: {}, statusCode: 413, responseBody: JSON.stringify({ type: 'error', error: { type: 'request_too_large', message: 'too big' } }), isRetryable: false });
    expect(describeModelError(anth413).code).toBe('context_length_exceeded');
    const anth400 = new APICallError({ message: 'x', url: 'http://x', requestBodyValues: {}, statusCode: 400, responseBody: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }), isRetryable: false });
    // No field says "too long" here: a bad request showing the provider's own words, never a guess from them.
    expect(describeModelError(anth400)).toMatchObject({ code: 'bad_request', message: expect.stringContaining('prompt is too long') });
    const other400 = new APICallError({ message: 'x', url: 'http://x', requestBodyValues: {}, statusCode: 400, responseBody: JSON.stringify({ error: { message: 'bad temperature', type: 'invalid_request_error' } }), isRetryable: false });
    expect(describeModelError(other400)).toMatchObject({ code: 'bad_request', message: expect.stringContaining('bad temperature') });
  });
});
