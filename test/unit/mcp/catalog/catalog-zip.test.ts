/**
 * The bundle zip reader (main/mcp/catalog/zip.ts, unzip.ts) and the unpacker's containment check
 * (bundle.ts unpackBundle), against real archives: zips written by fflate, Info-ZIP's `zip` and
 * Python's zipfile, and hostile ones built byte by byte (test/fixtures/zip-craft.ts) — a zip64
 * locator hiding a second central directory, end records that disagree, local headers that
 * disagree with the central directory, entries sharing bytes, a bomb that lies about its size.
 * What is checked is exactly what is extracted; inflating stops at the declared size; the event
 * loop keeps turning while a large entry inflates.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleError, unpackBundle, type InspectedBundle } from '../../../../main/mcp/catalog/bundle.js';
import { readZip, type UnzipStats, type ZipFile } from '../../../../main/mcp/catalog/unzip.js';
import { DEFAULT_LIMITS, ZipRefusedError } from '../../../../main/mcp/catalog/zip.js';
import { centralRecord, craft, craftZip, deflated, endRecord, localRecord, stored, zeros, zip64EndRecord, zip64Locator } from '../../../fixtures/zip-craft.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const MiB = 1024 * 1024;
const text = (f: ZipFile | undefined): string => new TextDecoder().decode(f?.data);

/** Why `readZip` refused the archive (with the bytes it inflated), or `accepted`. */
async function refusal(bytes: Uint8Array, limits = DEFAULT_LIMITS): Promise<{ why: string; inflated: number }> {
  const stats: UnzipStats = { inflatedBytes: 0 };
  try {
    await readZip(bytes, limits, stats);
    return { why: 'accepted', inflated: stats.inflatedBytes };
  } catch (err) {
    if (!(err instanceof ZipRefusedError)) throw err;
    return { why: err.message, inflated: stats.inflatedBytes };
  }
}

/** Largest gap between the turns of a 5 ms timer while `work` runs, ms. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  try {
    await work();
    const now = performance.now();
    return Math.max(worst, now - last);
  } finally {
    clearInterval(timer);
  }
}

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-zip-');
});
afterEach(async () => {
  await removeDir(dir);
});

describe('archives from real zip writers', () => {
  it('fflate, Info-ZIP and Python zipfile (with data descriptors) read back exactly, in order', async () => {
    const files = { 'manifest.json': '{"a":1}', 'server/index.mjs': 'console.log(1)\n'.repeat(500), 'empty.txt': '' };
    const byFflate = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)])));
    const src = path.join(dir, 'src');
    mkdirSync(path.join(src, 'server'), { recursive: true });
    for (const [k, v] of Object.entries(files)) writeFileSync(path.join(src, k), v);
    execFileSync('zip', ['-q', '-r', '-X', path.join(dir, 'info.zip'), '.'], { cwd: src });
    // A zipfile written to a pipe cannot seek back, so it uses data descriptors (flag bit 3).
    const py = ['import sys, zipfile', 'z = zipfile.ZipFile(sys.stdout.buffer, "w", zipfile.ZIP_DEFLATED)', ...Object.entries(files).map(([k, v]) => `z.writestr(${JSON.stringify(k)}, ${JSON.stringify(v)})`), 'z.close()'].join('\n');
    const byPython = execFileSync('python3', ['-c', py]);
    expect(byPython.readUInt16LE(6) & 0x08).toBe(0x08);
    for (const bytes of [byFflate, new Uint8Array(readFileSync(path.join(dir, 'info.zip'))), new Uint8Array(byPython)]) {
      const got = await readZip(bytes);
      const plain = got.filter((f) => !f.isDirectory);
      expect(plain.map((f) => f.name).sort()).toEqual(Object.keys(files).sort());
      for (const [k, v] of Object.entries(files)) expect(text(plain.find((f) => f.name === k))).toBe(v);
    }
    // Info-ZIP records Unix modes; its folder entry comes back as a folder.
    const info = await readZip(new Uint8Array(readFileSync(path.join(dir, 'info.zip'))));
    expect(info.find((f) => f.name === 'server/')).toMatchObject({ isDirectory: true, size: 0 });
    expect(info.find((f) => f.name === 'manifest.json')?.mode).toBe(0o644);
  });

  it('a hand-built archive with stored and deflated entries reads back', async () => {
    const got = await readZip(craftZip([stored('a.txt', 'hello'), deflated('b/c.txt', 'x'.repeat(10_000)), stored('run.sh', '#!/bin/sh\n', 0o100755)]));
    expect(got.map((f) => [f.name, f.size, f.mode])).toEqual([
      ['a.txt', 5, null],
      ['b/c.txt', 10_000, null],
      ['run.sh', 10, 0o755],
    ]);
    expect(text(got[1])).toBe('x'.repeat(10_000));
  });
});

describe('hostile archives', () => {
  it('a zip64 locator that hides a second central directory (a 1 GiB bomb in 256 KiB) is refused before anything is inflated', async () => {
    // The classic end record lists one harmless entry; a zip64 end record, found through the
    // locator just before it, lists four more that all point at one 256 MiB bomb. A reader that
    // follows the locator (fflate does) extracts entries a check of the classic directory never saw.
    const visible = stored('manifest.json', '{}');
    const bomb = zeros('manifest.json', 256);
    const locA = localRecord(visible);
    const locB = localRecord(bomb);
    const hidden = Buffer.concat(Array.from({ length: 4 }, () => centralRecord(bomb, locA.length)));
    const hiddenAt = locA.length + locB.length;
    const cd = centralRecord(visible, 0);
    const cdAt = hiddenAt + hidden.length;
    const z64At = cdAt + cd.length;
    const bytes = new Uint8Array(Buffer.concat([locA, locB, hidden, cd, zip64EndRecord({ count: 4, cdSize: hidden.length, cdOffset: hiddenAt }), zip64Locator(z64At), endRecord({ count: 1, cdSize: cd.length, cdOffset: cdAt })]));
    expect(bytes.length).toBeLessThan(300 * 1024);
    expect(await refusal(bytes)).toEqual({ why: 'Multi-part and zip64 archives are not supported.', inflated: 0 });
  });

  it('end records that disagree, several end records, zip64 fields, multi-disk archives are refused', async () => {
    const entries = [stored('manifest.json', '{}'), stored('b.txt', 'b')];
    const c = craft(entries);
    const build = (end: Partial<Parameters<typeof endRecord>[0]>): Uint8Array => new Uint8Array(Buffer.concat([c.locals, c.central, endRecord({ count: 2, cdSize: c.central.length, cdOffset: c.locals.length, ...end })]));
    expect((await refusal(build({}))).why).toBe('accepted');
    // "Entries on this disk" 0xFFFF sends readers that use it to zip64; "total" says 2.
    expect((await refusal(build({ diskCount: 0xffff }))).why).toMatch(/zip64/);
    expect((await refusal(build({ diskCount: 1 }))).why).toMatch(/zip64/);
    expect((await refusal(build({ disk: 1 }))).why).toMatch(/Multi-part/);
    expect((await refusal(build({ cdOffset: 0xffffffff }))).why).toMatch(/zip64/);
    // A central directory that does not end where the end record starts (room for hidden records).
    expect((await refusal(build({ cdSize: c.central.length - 10 }))).why).toMatch(/does not end where/);
    expect((await refusal(build({ count: 1, diskCount: 1 }))).why).toMatch(/more than its records/);
    // A second end record inside the comment of the first.
    const inner = endRecord({ count: 2, cdSize: c.central.length, cdOffset: c.locals.length });
    expect((await refusal(build({ comment: inner }))).why).toMatch(/more than one end record/);
    // A zip64 extra field in a central directory record.
    const z64extra = Buffer.concat([Buffer.from([0x01, 0x00, 0x08, 0x00]), Buffer.alloc(8)]);
    expect((await refusal(craftZip([{ ...stored('a.txt', 'a'), cdExtra: z64extra }]))).why).toMatch(/zip64/);
  });

  it('a local header that disagrees with the central directory is refused', async () => {
    const base = stored('README.md', 'read me');
    expect((await refusal(craftZip([base]))).why).toBe('accepted');
    expect((await refusal(craftZip([{ ...base, local: { name: '../../evil.sh' } }]))).why).toMatch(/disagrees with the central directory \(name\)/);
    expect((await refusal(craftZip([{ ...base, local: { method: 8 } }]))).why).toMatch(/\(method\)/);
    expect((await refusal(craftZip([{ ...base, local: { size: 3_000_000_000 } }]))).why).toMatch(/\(CRC or sizes\)/);
    expect((await refusal(craftZip([{ ...base, local: { crc: 1 } }]))).why).toMatch(/\(CRC or sizes\)/);
    expect((await refusal(craftZip([{ ...base, local: { flags: 0x0801 } }]))).why).toMatch(/\(flags\)/);
    // A central directory record pointing past the local records.
    expect((await refusal(craftZip([{ ...base, offset: 5 }]))).why).toMatch(/no local header/);
  });

  it('entries that share bytes (one bomb under many names) are refused', async () => {
    const bomb = zeros('a.bin', 4);
    const loc = localRecord(bomb);
    // Same local header for two names: the second name disagrees with it.
    const same = Buffer.concat([loc, centralRecord(bomb, 0), centralRecord({ ...bomb, name: 'b.bin' }, 0)]);
    const twice = new Uint8Array(Buffer.concat([same, endRecord({ count: 2, cdSize: same.length - loc.length, cdOffset: loc.length })]));
    expect((await refusal(twice)).why).toMatch(/disagrees|share/);
    // A stored entry whose data holds a second, complete entry: the local headers agree, the bytes overlap.
    const innerEntry = deflated('inner.txt', 'i'.repeat(1000));
    const innerLocal = localRecord(innerEntry);
    const outer = stored('outer.bin', innerLocal);
    const outerLocal = localRecord(outer);
    const innerAt = outerLocal.length - innerLocal.length;
    const cd = Buffer.concat([centralRecord(outer, 0), centralRecord(innerEntry, innerAt)]);
    const overlapping = new Uint8Array(Buffer.concat([outerLocal, cd, endRecord({ count: 2, cdSize: cd.length, cdOffset: outerLocal.length })]));
    expect(await refusal(overlapping)).toEqual({ why: expect.stringMatching(/two entries share the same bytes/), inflated: 0 });
  });

  it('a bomb that declares 1000 bytes is stopped at 1000 bytes (plus one 64 KiB chunk), not after inflating 64 MiB', async () => {
    const lying = zeros('data.bin', 64, 1000);
    const got = await refusal(craftZip([stored('manifest.json', '{}'), lying]));
    expect(got.why).toMatch(/does not unpack to the size it declares/);
    expect(got.inflated).toBeLessThanOrEqual(2 + 1000 + 64 * 1024);
    // Declaring the truth: too much for the limit, refused from the central directory, nothing inflated.
    expect(await refusal(craftZip([zeros('data.bin', 64)]), { maxEntries: 10, maxTotalBytes: 16 * MiB })).toEqual({ why: 'The bundle unpacks to more than 16 MB.', inflated: 0 });
    expect(await refusal(craftZip([stored('a', 'a'), stored('b', 'b'), stored('c', 'c')]), { maxEntries: 2, maxTotalBytes: MiB })).toEqual({ why: 'The bundle has more than 2 entries.', inflated: 0 });
    // Too little data for what it declares, or the wrong CRC.
    expect((await refusal(craftZip([zeros('short.bin', 1, 2 * MiB)]))).why).toMatch(/does not unpack to the size it declares/);
    expect((await refusal(craftZip([{ ...deflated('c.txt', 'abc'), crc: 7, local: { crc: 7 } }]))).why).toMatch(/fails its CRC check/);
    expect((await refusal(craftZip([{ ...stored('s.txt', 'abc'), crc: 7, local: { crc: 7 } }]))).why).toMatch(/fails its CRC check/);
  });

  it('inflating 256 MiB keeps the event loop turning (a 5 ms timer never waits 400 ms; inflating it at once takes over a second)', async () => {
    const big = craftZip([stored('manifest.json', '{}'), zeros('big.bin', 256)]);
    let files: ZipFile[] = [];
    const stall = await longestStall(async () => {
      files = await readZip(big);
    });
    expect(files.map((f) => [f.name, f.data.length])).toEqual([
      ['manifest.json', 2],
      ['big.bin', 256 * MiB],
    ]);
    expect(stall).toBeLessThan(400);
  });
});

describe('unpacking', () => {
  /** A bundle whose entry list slipped past the name checks (built by hand, as a bug in them would). */
  const slipped = (names: string[]): InspectedBundle =>
    ({ manifest: {} as InspectedBundle['manifest'], entries: names.map((name) => ({ name, isDirectory: false, mode: null, size: 4, data: new TextEncoder().encode('evil') })), fields: [], command: 'node', fixed: [], sandboxNeeds: { kind: 'none' } }) as InspectedBundle;

  it('writes nothing outside the bundle folder, even for entries the name checks missed, and removes the folder', async () => {
    const root = path.join(dir, 'bundles');
    for (const name of ['../escaped.txt', 'server/../../escaped.txt', path.join(dir, 'escaped.txt')]) {
      const target = path.join(root, 'x-00000000');
      const err = await unpackBundle(slipped(['ok.txt', name]), target).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(BundleError);
      expect((err as Error).message).toMatch(/would be written outside its folder/);
      expect(existsSync(path.join(root, 'escaped.txt'))).toBe(false);
      expect(existsSync(path.join(dir, 'escaped.txt'))).toBe(false);
      expect(readdirSync(root)).toEqual([]);
    }
    // A good list is written.
    await unpackBundle(slipped(['a/b.txt']), path.join(root, 'y-00000000'));
    expect(readFileSync(path.join(root, 'y-00000000', 'a', 'b.txt'), 'utf8')).toBe('evil');
  });
});
