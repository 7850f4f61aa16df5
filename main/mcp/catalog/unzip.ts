/**
 * The server catalog's one job here: extract a bundle's zip — exactly the entries ./zip.ts
 * checked, each from the offset it found, held to its declared size while it is inflated
 * (docs/ARCHITECTURE.md "Server catalog", bundles).
 *
 * Deflate runs in node:zlib's thread pool through a stream, so the main loop only copies 64 KiB
 * chunks; stored data is checked in 1 MiB slices with a turn of the loop between them. An entry
 * that inflates to more than it declares is stopped at that point (and the archive refused); as
 * ./zip.ts holds the declared sizes to `maxTotalBytes`, no more than that (plus one chunk) is ever
 * inflated. The CRC-32 of every entry is checked.
 */
import { createInflateRaw, crc32 } from 'node:zlib';
import { DEFAULT_LIMITS, listZip, ZipRefusedError, type LocatedEntry, type ZipEntry, type ZipLimits } from './zip.js';

/** An extracted entry: its checked description and its bytes (empty for a folder). */
export interface ZipFile extends ZipEntry {
  data: Uint8Array;
}

/** What an extraction did (for the tests and logs): bytes that came out of the inflater. */
export interface UnzipStats {
  inflatedBytes: number;
}

const OUT_CHUNK = 64 * 1024;
const STORED_SLICE = 1024 * 1024;

const lies = (e: ZipEntry): ZipRefusedError => new ZipRefusedError(`The zip archive is damaged or inconsistent: the entry "${e.name.slice(0, 100)}" does not unpack to the size it declares.`);
const badCrc = (e: ZipEntry): ZipRefusedError => new ZipRefusedError(`The zip archive is damaged or inconsistent: the entry "${e.name.slice(0, 100)}" fails its CRC check.`);

/** Inflate one entry into a buffer of its declared size, stopping as soon as it would not fit. */
function inflateEntry(src: Uint8Array, e: LocatedEntry, stats: UnzipStats): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const out = Buffer.allocUnsafe(e.size);
    let n = 0;
    let crc = 0;
    let settled = false;
    const z = createInflateRaw({ chunkSize: OUT_CHUNK });
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      z.destroy();
      reject(err);
    };
    z.on('data', (chunk: Buffer) => {
      if (settled) return;
      stats.inflatedBytes += chunk.length;
      if (n + chunk.length > e.size) return fail(lies(e));
      chunk.copy(out, n);
      n += chunk.length;
      crc = crc32(chunk, crc);
    });
    z.on('error', () => fail(new ZipRefusedError(`The zip archive is damaged or inconsistent: the entry "${e.name.slice(0, 100)}" could not be inflated.`)));
    z.on('end', () => {
      if (settled) return;
      settled = true;
      if (n !== e.size) return reject(lies(e));
      if (crc >>> 0 !== e.crc) return reject(badCrc(e));
      resolve(out);
    });
    z.end(src);
  });
}

/** A stored entry: copied and CRC-checked in slices, yielding to the loop between them. */
async function storedEntry(src: Uint8Array, e: LocatedEntry, stats: UnzipStats): Promise<Uint8Array> {
  const out = new Uint8Array(e.size);
  let crc = 0;
  for (let at = 0; at < src.length; at += STORED_SLICE) {
    const slice = src.subarray(at, at + STORED_SLICE);
    stats.inflatedBytes += slice.length;
    out.set(slice, at);
    crc = crc32(slice, crc);
    if (at + STORED_SLICE < src.length) await new Promise((r) => setImmediate(r));
  }
  if (crc >>> 0 !== e.crc) throw badCrc(e);
  return out;
}

/**
 * Every entry of a checked archive with its bytes, in central directory order.
 * @param stats receives the number of bytes inflated (also when the archive is refused)
 * @throws ZipRefusedError (see ./zip.ts and the module comment)
 */
export async function readZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_LIMITS, stats: UnzipStats = { inflatedBytes: 0 }): Promise<ZipFile[]> {
  const entries = listZip(bytes, limits);
  const out: ZipFile[] = [];
  for (const e of entries) {
    const src = bytes.subarray(e.dataStart, e.dataStart + e.compressedSize);
    const data = e.isDirectory ? new Uint8Array() : e.method === 0 ? await storedEntry(src, e, stats) : await inflateEntry(src, e, stats);
    out.push({ name: e.name, isDirectory: e.isDirectory, mode: e.mode, size: e.size, data });
  }
  return out;
}
