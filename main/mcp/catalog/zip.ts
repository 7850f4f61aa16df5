/**
 * The server catalog's one job here: read a bundle's zip safely (docs/ARCHITECTURE.md "Server
 * catalog", bundles). The central directory is read first and every entry checked — a name that
 * is absolute, has a `..` part, a backslash or a drive letter; a symbolic link or other special
 * file; duplicates; too many entries or too many bytes — before anything is decompressed (with
 * fflate, which @anthropic-ai/mcpb itself uses).
 */
import { unzipSync } from 'fflate';

/** Why a bundle's zip was refused. */
export class ZipRefusedError extends Error {
  override name = 'ZipRefusedError';
}

/** One entry of the central directory. */
export interface ZipEntry {
  name: string;
  isDirectory: boolean;
  /** Unix permission bits when the archive was made on Unix (e.g. 0o755), else null. */
  mode: number | null;
  size: number;
}

/** Limits for one archive. */
export interface ZipLimits {
  maxEntries: number;
  /** Sum of the uncompressed sizes, bytes. */
  maxTotalBytes: number;
}

const DEFAULT_LIMITS: ZipLimits = { maxEntries: 20_000, maxTotalBytes: 512 * 1024 * 1024 };

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** Whether a path inside the archive stays inside the folder it is unpacked into. @throws ZipRefusedError */
export function checkEntryName(name: string): void {
  if (!name || name.length > 1024) throw new ZipRefusedError('The bundle has an entry with an empty or overlong name.');
  // eslint-disable-next-line no-control-regex -- control characters in a file name are refused
  if (/[\u0000-\u001f\\]/.test(name)) throw new ZipRefusedError(`The bundle entry "${name.slice(0, 100)}" has a backslash or control character in its name.`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new ZipRefusedError(`The bundle entry "${name.slice(0, 100)}" has an absolute path.`);
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) throw new ZipRefusedError(`The bundle entry "${name.slice(0, 100)}" would be written outside the bundle's folder.`);
}

/**
 * The entries of a zip, each checked. @throws ZipRefusedError for a file that is not a zip, a
 * zip64 or multi-disk archive, or any entry that is refused (see the module comment).
 */
export function listZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_LIMITS): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipRefusedError('The file is not a zip archive.');
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (view.getUint16(eocd + 4, true) !== 0 || count === 0xffff || cdOffset === 0xffffffff) throw new ZipRefusedError('Multi-part and zip64 archives are not supported.');
  if (count > limits.maxEntries) throw new ZipRefusedError(`The bundle has more than ${limits.maxEntries} entries.`);
  if (cdOffset + cdSize > eocd) throw new ZipRefusedError('The zip archive is damaged.');
  const out: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) throw new ZipRefusedError('The zip archive is damaged.');
    const madeBy = view.getUint16(p + 4, true) >> 8;
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    const name = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
    checkEntryName(name);
    const key = name.replace(/\/$/, '').toLowerCase();
    if (seen.has(key)) throw new ZipRefusedError(`The bundle has the entry "${name.slice(0, 100)}" twice.`);
    seen.add(key);
    const unixMode = madeBy === 3 ? external >>> 16 : 0;
    const type = unixMode & S_IFMT;
    if (type === S_IFLNK) throw new ZipRefusedError(`The bundle entry "${name.slice(0, 100)}" is a symbolic link; links are not allowed.`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw new ZipRefusedError(`The bundle entry "${name.slice(0, 100)}" is not a regular file or folder.`);
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipRefusedError(`The bundle unpacks to more than ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB.`);
    out.push({ name, isDirectory: name.endsWith('/') || type === S_IFDIR, mode: type ? unixMode & 0o777 : null, size });
  }
  return out;
}

/**
 * Every file of a checked archive, by name (directories left out). Sizes are enforced again on
 * the decompressed data. @throws ZipRefusedError
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_LIMITS): { entries: ZipEntry[]; files: Map<string, Uint8Array> } {
  const entries = listZip(bytes, limits);
  const allowed = new Map(entries.map((e) => [e.name, e]));
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => allowed.has(f.name) && !allowed.get(f.name)!.isDirectory && f.originalSize <= limits.maxTotalBytes });
  } catch (err) {
    throw new ZipRefusedError(`The zip archive could not be read: ${(err as Error).message}`);
  }
  const out = new Map<string, Uint8Array>();
  let total = 0;
  for (const [name, data] of Object.entries(files)) {
    if (!allowed.has(name)) throw new ZipRefusedError('The zip archive is damaged.');
    total += data.byteLength;
    if (total > limits.maxTotalBytes) throw new ZipRefusedError(`The bundle unpacks to more than ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB.`);
    out.set(name, data);
  }
  return { entries, files: out };
}
