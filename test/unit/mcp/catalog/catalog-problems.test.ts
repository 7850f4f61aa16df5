/**
 * Why the registry (or a bundle download) could not be used, as structured problems
 * (`CatalogProblem` in preload/contract; main/mcp/catalog/registry.ts, bundle-installer.ts):
 * each bad answer of the local registry fixture gives its code and fields, the English `message`
 * holds no sentence for a user, the problem crosses the real dispatcher to the window (search
 * page and errors), and every code reads as a helpful sentence in English and Simplified Chinese
 * (renderer/src/i18n/errors.ts). See docs/ARCHITECTURE.md "Server catalog".
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogProblemSchema, type CatalogPage, type CatalogProblem, type IpcError } from '../../../../preload/contract/index.js';
import { RegistryClient, RegistryError } from '../../../../main/mcp/catalog/registry.js';
import { downloadBundle } from '../../../../main/mcp/catalog/bundle-installer.js';
import { BundleError } from '../../../../main/mcp/catalog/bundle.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher, toIpcError } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { en } from '../../../../renderer/src/i18n/en.js';
import { zhCN } from '../../../../renderer/src/i18n/zh-CN.js';
import { i18next } from '../../../../renderer/src/i18n/index.js';
import { describeError, describeReason } from '../../../../renderer/src/i18n/errors.js';
import { startRegistryFixture, type RegistryFixture } from '../../../fixtures/registry-server.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let fx: RegistryFixture;
let host: string;
beforeAll(async () => {
  fx = await startRegistryFixture({ pageSize: 5 });
  host = new URL(fx.url).host;
});
afterAll(() => fx.close());
afterEach(async () => {
  fx.mode = 'normal';
  await i18next.changeLanguage('en');
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise<number>((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
}

/** The problem a failing registry call carries. */
async function problem(p: Promise<unknown>): Promise<CatalogProblem> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RegistryError || err instanceof BundleError) {
      if (!err.problem) throw err;
      // Main's message is a log line: the code and its fields, never a sentence for a user.
      expect(err.message).toContain(err.problem.code);
      expect(catalogProblemSchema.safeParse(err.problem).success).toBe(true);
      return err.problem;
    }
    throw err;
  }
  throw new Error('did not fail');
}

describe('registry problems from the real fixture', () => {
  it('unreachable (with the system error code), slow, not JSON, too large, empty pages, HTTP status, not found', async () => {
    const port = await closedPort();
    expect(await problem(new RegistryClient(`http://127.0.0.1:${port}`).search(''))).toEqual({ code: 'registry_unreachable', host: `127.0.0.1:${port}`, error: 'ECONNREFUSED' });
    fx.mode = 'slow';
    expect(await problem(new RegistryClient(fx.url, { timeoutMs: 300 }).search(''))).toEqual({ code: 'registry_unreachable', host, error: 'timeout' });
    fx.mode = 'garbage';
    expect(await problem(new RegistryClient(fx.url).search(''))).toEqual({ code: 'registry_not_json', host });
    fx.mode = 'huge';
    expect(await problem(new RegistryClient(fx.url, { maxBytes: 256 * 1024 }).search(''))).toEqual({ code: 'registry_too_large', host, mib: 0.25 });
    fx.mode = 'endless';
    expect(await problem(new RegistryClient(fx.url, { maxPages: 4 }).search(''))).toEqual({ code: 'registry_paging_empty', host, pages: 4 });
    fx.mode = 'error';
    expect(await problem(new RegistryClient(fx.url).search(''))).toEqual({ code: 'registry_http_status', host, status: 503 });
    fx.mode = 'normal';
    expect(await problem(new RegistryClient(fx.url).get('io.github.example/nothing', 'latest'))).toEqual({ code: 'registry_not_found', host });
  });

  it('answers that are JSON but not what was asked for', async () => {
    const fake = (body: unknown): typeof fetch => (async () => new Response(JSON.stringify(body), { status: 200 })) as typeof fetch;
    const at = (body: unknown, o: { maxPages?: number } = {}) => new RegistryClient('https://r.example', { fetch: fake(body), ...o });
    expect(await problem(at({ servers: 'many' }).search(''))).toEqual({ code: 'registry_not_a_list', host: 'r.example' });
    expect(await problem(at({ nothing: true }).get('a/b', 'latest'))).toEqual({ code: 'registry_not_an_entry', host: 'r.example' });
    expect(await problem(at({ server: { name: 'x/y', version: '1' } }).get('a/b', 'latest'))).toEqual({ code: 'registry_wrong_entry', host: 'r.example' });
    const loop = { servers: [{ server: { name: 'a/b', version: '1', description: 'd' } }], metadata: { nextCursor: 'same' } };
    expect(await problem(at(loop, { maxPages: 50 }).search(''))).toEqual({ code: 'registry_paging_loops', host: 'r.example' });
  });

  it('bundle downloads: unreachable, HTTP status, wrong hash', async () => {
    const port = await closedPort();
    expect(await problem(downloadBundle(`http://127.0.0.1:${port}/x.mcpb`, 'a'.repeat(64)))).toEqual({ code: 'bundle_unreachable', host: `127.0.0.1:${port}`, error: 'ECONNREFUSED' });
    expect(await problem(downloadBundle(`${fx.url}/files/none.mcpb`, 'a'.repeat(64)))).toEqual({ code: 'bundle_http_status', host, status: 404 });
    fx.files.set('x.mcpb', new Uint8Array([1, 2, 3]));
    expect(await problem(downloadBundle(`${fx.url}/files/x.mcpb`, 'a'.repeat(64)))).toEqual({ code: 'bundle_sha256_mismatch' });
  });
});

describe('to the window', () => {
  let dir: string;
  let core: AppCore | undefined;
  afterEach(async () => {
    await core?.shutdown();
    core = undefined;
    if (dir) await removeDir(dir);
  });

  it('an unreachable registry: the search page and an install carry the problem; the window says what to do, in its language', async () => {
    dir = makeTempDir('op-problems-');
    core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    await core.start();
    const d = createDispatcher(core);
    const port = await closedPort();
    expect((await d.invoke('catalog.setSettings', { registry_url: `http://127.0.0.1:${port}` })).ok).toBe(true);

    const search = await d.invoke('catalog.search', { query: 'never searched', include_deprecated: false });
    if (!search.ok) throw new Error(search.error.message);
    // What crosses the carrier is JSON.
    const page = JSON.parse(JSON.stringify(search.value)) as CatalogPage;
    expect(page.source).toEqual({ kind: 'none', reason: { code: 'registry_unreachable', host: `127.0.0.1:${port}`, error: 'ECONNREFUSED' } });
    if (page.source.kind !== 'none') throw new Error('expected no results');
    expect(describeReason(page.source.reason)).toBe(
      `Cannot reach the registry at 127.0.0.1:${port} (ECONNREFUSED). Check your internet connection (and any proxy or firewall), or enter another registry under “Registry URL” above.`,
    );
    await i18next.changeLanguage('zh-CN');
    expect(describeReason(page.source.reason)).toBe(`无法连接 127.0.0.1:${port} 上的注册中心（ECONNREFUSED）。请检查网络连接（以及代理或防火墙设置），或在上方“注册中心地址”中换用其他注册中心。`);
    await i18next.changeLanguage('en');

    const install = await d.invoke('catalog.install', { name: 'io.github.example/everything', version: '1.0.0', option: 'package:0', server_name: 'e', values: {} });
    if (install.ok) throw new Error('expected a failure');
    const error = JSON.parse(JSON.stringify(install.error)) as IpcError;
    expect(error).toMatchObject({ code: 'registry_unavailable', reason: { code: 'registry_unreachable', error: 'ECONNREFUSED' } });
    expect(error.message).not.toMatch(/Cannot reach/);
    expect(describeError(error)).toMatch(/^Cannot reach the registry at .*Check your internet connection/);
    await i18next.changeLanguage('zh-CN');
    expect(describeError(error)).toMatch(/^无法连接 .* 上的注册中心（ECONNREFUSED）。请检查网络连接/);
  });

  it('toIpcError: registry and bundle problems cross as reasons; a 404 is not_found; a problem that does not fit the schema is dropped', () => {
    expect(toIpcError(new RegistryError('not_found', { code: 'registry_not_found', host: 'r.example' }))).toMatchObject({ code: 'not_found', reason: { code: 'registry_not_found' } });
    expect(toIpcError(new BundleError({ code: 'bundle_too_large', mb: 64 }))).toMatchObject({ code: 'bundle_invalid', reason: { code: 'bundle_too_large', mb: 64 } });
    // A bundle refused for its contents keeps its English message and has no reason.
    expect(toIpcError(new BundleError('The bundle has no manifest.json at its top level.'))).toEqual({ code: 'bundle_invalid', message: 'The bundle has no manifest.json at its top level.' });
    const bad = new RegistryError('http', { code: 'registry_http_status', host: 'r.example', status: 503 });
    (bad as unknown as { problem: unknown }).problem = { code: 'registry_http_status', host: 'r.example', status: 'x<script>' };
    expect(toIpcError(bad)).not.toHaveProperty('reason');
  });
});

describe('sentences', () => {
  const sample: Record<string, unknown> = { host: 'r.example', error: 'ENOTFOUND', status: 502, mib: 4, pages: 5, name: 'a/b', mb: 64 };
  const every = (): CatalogProblem[] =>
    catalogProblemSchema.options.map((o) => Object.fromEntries(Object.keys(o.shape).map((k) => [k, k === 'code' ? o.shape.code.value : sample[k]])) as CatalogProblem);

  it('every problem code (and the timeouts) has its sentence in English and Chinese, with its data filled', async () => {
    const problems = [...every(), { code: 'registry_unreachable', host: 'r.example', error: 'timeout' } as const, { code: 'bundle_unreachable', host: 'r.example', error: 'timeout' } as const];
    for (const p of problems) expect(catalogProblemSchema.safeParse(p).success, p.code).toBe(true);
    for (const lang of ['en', 'zh-CN']) {
      await i18next.changeLanguage(lang);
      for (const p of problems) {
        const text = describeReason(p);
        expect(text, `${lang} ${p.code}`).not.toBe('');
        expect(text, `${lang} ${p.code}`).not.toMatch(/\{\{|catalog\.why/);
        if ('host' in p) expect(text, `${lang} ${p.code}`).toContain('r.example');
        if (lang === 'zh-CN') expect(text, p.code).toMatch(/[\u4e00-\u9fff]/);
      }
    }
    await i18next.changeLanguage('en');
    expect(describeReason({ code: 'registry_unreachable', host: 'registry.modelcontextprotocol.io', error: 'ENOTFOUND' })).toBe(
      'Cannot reach the registry at registry.modelcontextprotocol.io (ENOTFOUND). Check your internet connection (and any proxy or firewall), or enter another registry under “Registry URL” above.',
    );
    expect(describeReason({ code: 'registry_unreachable', host: 'r.example', error: 'timeout' })).toMatch(/did not answer in time/);
    expect(describeReason({ code: 'registry_unlisted', name: 'a/b' })).toBe('The registry no longer lists a/b. The installed server keeps working; look in the catalog for a replacement.');
    // Every problem sentence says what to do, or why nothing can be done here.
    const whyEn = en.catalog.why as Record<string, unknown>;
    const whyZh = zhCN.catalog.why as Record<string, unknown>;
    for (const key of [...catalogProblemSchema.options.map((o) => o.shape.code.value), 'registry_timeout', 'bundle_timeout']) {
      expect(whyEn[key], key).toEqual(expect.any(String));
      expect(whyZh[key], key).toEqual(expect.any(String));
    }
  });
});
