/**
 * The registry client (main/mcp/catalog/registry.ts) and the disk cache (cache.ts) against the
 * local registry fixture on 127.0.0.1: search and pagination, single entries, and every bad
 * answer (unreachable, slow, garbage, too large, endless paging, HTTP errors), which must leave
 * the cache as it was.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCache } from '../../../../main/mcp/catalog/cache.js';
import { RegistryClient, RegistryError } from '../../../../main/mcp/catalog/registry.js';
import { everythingServer } from '../../../fixtures/registry-data.js';
import { startRegistryFixture, type RegistryFixture } from '../../../fixtures/registry-server.js';

let fx: RegistryFixture;
const dirs: string[] = [];
beforeAll(async () => {
  fx = await startRegistryFixture({ pageSize: 5 });
});
afterAll(() => fx.close());
afterEach(() => {
  fx.mode = 'normal';
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'catalog-'));
  dirs.push(d);
  return d;
}

async function kind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof RegistryError) return err.kind;
    throw err;
  }
}

describe('registry client', () => {
  it('reads pages with the cursor until it has enough, latest versions only, deleted left out', async () => {
    const c = new RegistryClient(fx.url, { want: 8 });
    const first = await c.search('');
    expect(first.entries.length).toBeGreaterThanOrEqual(8);
    expect(fx.requests.some((r) => r.includes('cursor='))).toBe(true);
    expect(fx.requests.every((r) => !r.startsWith('/v0.1/servers?') || r.includes('version=latest'))).toBe(true);
    const names = first.entries.map((e) => e.name);
    expect(names).not.toContain('io.github.example/gone');
    expect(first.nextCursor).not.toBeNull();
    const next = await c.search('', first.nextCursor!);
    expect(next.entries.map((e) => e.name).some((n) => names.includes(n))).toBe(false);
  });

  it('searches; a server.json that does not validate comes back with the reason', async () => {
    const c = new RegistryClient(fx.url);
    const found = await c.search('example/');
    const byName = Object.fromEntries(found.entries.map((e) => [e.name, e]));
    expect(byName['io.github.example/everything']!.server?.packages?.[0]?.identifier).toBe('@modelcontextprotocol/server-everything');
    expect(byName['io.github.example/old-tool']!.status).toBe('deprecated');
    expect(byName['io.github.example/broken']!.server).toBeNull();
    expect(byName['io.github.example/broken']!.invalid).toMatch(/server.json does not validate: packages\.0\.transport/);
    // The screen gets the place as path segments (not the validator's English text) to translate.
    expect(byName['io.github.example/broken']!.invalidPath).toEqual(['packages', 0, 'transport']);
  });

  it('gets one version or the latest, and deleted entries with their status', async () => {
    const c = new RegistryClient(fx.url);
    fx.publish(everythingServer('1.1.0'));
    try {
      expect((await c.get('io.github.example/everything', 'latest')).version).toBe('1.1.0');
      expect((await c.get('io.github.example/everything', '1.0.0')).version).toBe('1.0.0');
      expect((await c.get('io.github.example/gone', 'latest')).status).toBe('deleted');
      expect(await kind(c.get('io.github.example/nothing', 'latest'))).toBe('not_found');
    } finally {
      fx.entries = fx.entries.filter((e) => e.server.version !== '1.1.0' || e.server.name !== 'io.github.example/everything');
      fx.entries.find((e) => e.server.name === 'io.github.example/everything')!._meta['io.modelcontextprotocol.registry/official'].isLatest = true;
    }
  });

  it('unreachable, slow, garbage, huge, endless paging and HTTP errors are typed errors', async () => {
    const port = await new Promise<number>((r) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => r(p));
      });
    });
    expect(await kind(new RegistryClient(`http://127.0.0.1:${port}`).search(''))).toBe('unreachable');
    fx.mode = 'slow';
    expect(await kind(new RegistryClient(fx.url, { timeoutMs: 300 }).search(''))).toBe('timeout');
    fx.mode = 'garbage';
    expect(await kind(new RegistryClient(fx.url).search(''))).toBe('garbage');
    fx.mode = 'huge';
    expect(await kind(new RegistryClient(fx.url, { maxBytes: 256 * 1024 }).search(''))).toBe('too_large');
    fx.mode = 'endless';
    expect(await kind(new RegistryClient(fx.url, { maxPages: 4 }).search(''))).toBe('endless_paging');
    fx.mode = 'error';
    expect(await kind(new RegistryClient(fx.url).search(''))).toBe('http');
  });

  it('a list that is JSON but not a server list is garbage', async () => {
    const fake = (body: unknown): typeof fetch => (async () => new Response(JSON.stringify(body), { status: 200 })) as typeof fetch;
    expect(await kind(new RegistryClient('https://r.example', { fetch: fake({ servers: 'many' }) }).search(''))).toBe('garbage');
    expect(await kind(new RegistryClient('https://r.example', { fetch: fake({ server: { name: 'x/y', version: '1' } }) }).get('a/b', 'latest'))).toBe('garbage');
    // Entries without a usable name are counted, not shown.
    const page = await new RegistryClient('https://r.example', { fetch: fake({ servers: [{ server: { description: 'x' } }, { server: { name: 'a/b', version: '1', description: 'd' } }] }) }).search('');
    expect(page.skipped).toBe(1);
    expect(page.entries.map((e) => e.name)).toEqual(['a/b']);
    // A registry that sends the same cursor again (with servers on every page) is refused too.
    const loop = fake({ servers: [{ server: { name: 'a/b', version: '1', description: 'd' } }], metadata: { nextCursor: 'same' } });
    expect(await kind(new RegistryClient('https://r.example', { fetch: loop, maxPages: 50 }).search(''))).toBe('endless_paging');
  });
});

describe('cache', () => {
  it('keeps answers for offline use and finds entries in them', async () => {
    const cache = new CatalogCache(dir());
    const c = new RegistryClient(fx.url);
    const page = await c.search('example/');
    await cache.putPage(fx.url, 'example/', undefined, page, 1000);
    expect(statSync(cache.file).mode & 0o077).toBe(0);
    const back = await cache.getPage(fx.url, 'example/', undefined);
    expect(back?.fetchedAt).toBe(1000);
    expect(back?.entries.map((e) => e.name)).toEqual(page.entries.map((e) => e.name));
    // Re-validated on read: the broken entry is still invalid, the good ones valid.
    expect(back?.entries.find((e) => e.name === 'io.github.example/broken')?.invalid).toMatch(/does not validate/);
    expect(back?.entries.find((e) => e.name === 'io.github.example/everything')?.server?.title).toBe('Everything');
    // Another search, offline: the words are looked up in what is cached.
    const local = await cache.getPage(fx.url, 'weather', undefined);
    expect(local?.entries.map((e) => e.name)).toEqual(['com.example/weather-remote']);
    expect(await cache.getPage(fx.url, 'nothing-like-this', undefined)).toBeNull();
    expect(await cache.getPage('https://other.example', 'example/', undefined)).toBeNull();
    expect((await cache.getEntry(fx.url, 'io.github.example/everything', 'latest'))?.entry.version).toBe('1.0.0');
  });

  it('an unreadable cache file is treated as empty and replaced on the next success', async () => {
    const cache = new CatalogCache(dir());
    const c = new RegistryClient(fx.url);
    await cache.putPage(fx.url, '', undefined, await c.search(''));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(cache.file, '{not json');
    expect(await cache.getPage(fx.url, '', undefined)).toBeNull();
    await cache.putPage(fx.url, '', undefined, await c.search(''));
    expect(JSON.parse(readFileSync(cache.file, 'utf8')).version).toBe(1);
  });
});
