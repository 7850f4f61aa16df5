/**
 * The server catalog's one job here: read the structure of a bundle's zip — once, strictly — and
 * check every entry (docs/ARCHITECTURE.md "Server catalog", bundles). What this returns is the
 * exact list that ./unzip.ts extracts, each entry with where its data lies, so nothing can be
 * extracted that was not checked.
 *
 * Refused: anything but exactly one end record at the very end; zip64 (a locator, a 0xFFFF /
 * 0xFFFFFFFF field, a zip64 extra field) and multi-disk archives; a central directory that does
 * not fill the space its end record gives it; encrypted entries and methods other than stored
 * and deflate; a local header that disagrees with its central directory record (name, method,
 * flags, CRC, sizes); entries whose bytes overlap or run into the central directory; names that
 * are absolute, have a `..` part, a backslash, a drive letter, control characters or invalid
 * UTF-8; symbolic links and other special files; duplicates (ignoring case); too many entries or
 * too many bytes declared.
 */

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
  /** Uncompressed size, bytes, as the archive declares it (./unzip.ts holds it to that). */
  size: number;
}

/** A checked entry and where its data is: what ./unzip.ts extracts. */
export interface LocatedEntry extends ZipEntry {
  /** 0 stored, 8 deflate. */
  method: 0 | 8;
  /** CRC-32 of the uncompressed data. */
  crc: number;
  /** Offset of the entry's (compressed) data in the archive, bytes. */
  dataStart: number;
  /** Length of the compressed data, bytes. */
  compressedSize: number;
}

/** Limits for one archive. */
export interface ZipLimits {
  maxEntries: number;
  /** Sum of the uncompressed sizes, bytes (declared, and again while inflating). */
  maxTotalBytes: number;
}

/** The limits a bundle is held to: 20 000 entries, 512 MiB unpacked. */
export const DEFAULT_LIMITS: ZipLimits = { maxEntries: 20_000, maxTotalBytes: 512 * 1024 * 1024 };

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_DESCRIPTOR = 0x0008;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

const damaged = (what: string): ZipRefusedError => new ZipRefusedError(`The zip archive is damaged or inconsistent: ${what}.`);
const zip64 = (): ZipRefusedError => new ZipRefusedError('Multi-part and zip64 archives are not supported.');
const shown = (name: string): string => name.slice(0, 100);

/** Whether a path inside the archive stays inside the folder it is unpacked into. @throws ZipRefusedError */
export function checkEntryName(name: string): void {
  if (!name || name.length > 1024) throw new ZipRefusedError('The bundle has an entry with an empty or overlong name.');
  // eslint-disable-next-line no-control-regex -- control characters in a file name are refused
  if (/[\u0000-\u001f\\]/.test(name)) throw new ZipRefusedError(`The bundle entry "${shown(name)}" has a backslash or control character in its name.`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new ZipRefusedError(`The bundle entry "${shown(name)}" has an absolute path.`);
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) throw new ZipRefusedError(`The bundle entry "${shown(name)}" would be written outside the bundle's folder.`);
}

/** The offset of the one end record that ends the file exactly (its comment reaching the last byte). */
function findEnd(bytes: Uint8Array, view: DataView): number {
  const found: number[] = [];
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === SIG_END && i + 22 + view.getUint16(i + 20, true) === bytes.length) found.push(i);
  }
  if (found.length === 0) throw new ZipRefusedError('The file is not a zip archive.');
  if (found.length > 1) throw damaged('more than one end record');
  return found[0]!;
}

/** Whether an extra field (`id`, `length`, data…) holds a zip64 record. @throws ZipRefusedError when it overruns */
function hasZip64Extra(view: DataView, start: number, length: number): boolean {
  let p = start;
  const end = start + length;
  while (p < end) {
    if (p + 4 > end) throw damaged('an extra field is cut short');
    const id = view.getUint16(p, true);
    const len = view.getUint16(p + 2, true);
    if (p + 4 + len > end) throw damaged('an extra field is cut short');
    if (id === ZIP64_EXTRA) return true;
    p += 4 + len;
  }
  return false;
}

function decodeName(raw: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ZipRefusedError('The bundle has an entry whose name is not valid UTF-8.');
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Every entry of a zip, each checked (see the module comment), with where its data is.
 * @throws ZipRefusedError
 */
export function listZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_LIMITS): LocatedEntry[] {
  if (bytes.length < 22) throw new ZipRefusedError('The file is not a zip archive.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEnd(bytes, view);
  if (eocd >= 20 && view.getUint32(eocd - 20, true) === SIG_ZIP64_LOCATOR) throw zip64();
  const disk = view.getUint16(eocd + 4, true);
  const cdDisk = view.getUint16(eocd + 6, true);
  const onDisk = view.getUint16(eocd + 8, true);
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || onDisk === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw zip64();
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) throw zip64();
  if (count > limits.maxEntries) throw new ZipRefusedError(`The bundle has more than ${limits.maxEntries} entries.`);
  if (cdOffset + cdSize !== eocd) throw damaged('the central directory does not end where the end record starts');

  const out: LocatedEntry[] = [];
  const spans: [number, number][] = [];
  const seen = new Set<string>();
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || view.getUint32(p, true) !== SIG_CENTRAL) throw damaged('a central directory record is missing');
    const madeBy = view.getUint16(p + 4, true) >> 8;
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    const compressedSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const diskStart = view.getUint16(p + 34, true);
    const external = view.getUint32(p + 38, true);
    const localOffset = view.getUint32(p + 42, true);
    const recordEnd = p + 46 + nameLen + extraLen + commentLen;
    if (recordEnd > eocd) throw damaged('a central directory record runs past the directory');
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff || diskStart !== 0) throw zip64();
    if (hasZip64Extra(view, p + 46 + nameLen, extraLen)) throw zip64();
    const rawName = bytes.subarray(p + 46, p + 46 + nameLen);
    const name = decodeName(rawName);
    p = recordEnd;

    checkEntryName(name);
    const key = name.replace(/\/$/, '').toLowerCase();
    if (seen.has(key)) throw new ZipRefusedError(`The bundle has the entry "${shown(name)}" twice.`);
    seen.add(key);
    const unixMode = madeBy === 3 ? external >>> 16 : 0;
    const type = unixMode & S_IFMT;
    if (type === S_IFLNK) throw new ZipRefusedError(`The bundle entry "${shown(name)}" is a symbolic link; links are not allowed.`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw new ZipRefusedError(`The bundle entry "${shown(name)}" is not a regular file or folder.`);
    if (flags & FLAG_ENCRYPTED) throw new ZipRefusedError(`The bundle entry "${shown(name)}" is encrypted.`);
    if (method !== 0 && method !== 8) throw new ZipRefusedError(`The bundle entry "${shown(name)}" uses a compression method other than deflate.`);
    if (method === 0 && compressedSize !== size) throw damaged(`the stored entry "${shown(name)}" has two sizes`);
    const isDirectory = name.endsWith('/') || type === S_IFDIR;
    if (isDirectory && size !== 0) throw damaged(`the folder "${shown(name)}" has contents`);
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipRefusedError(`The bundle unpacks to more than ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB.`);

    // The local header must say what the central directory says.
    if (localOffset + 30 > cdOffset || view.getUint32(localOffset, true) !== SIG_LOCAL) throw damaged(`the entry "${shown(name)}" has no local header`);
    const lFlags = view.getUint16(localOffset + 6, true);
    const lMethod = view.getUint16(localOffset + 8, true);
    const lCrc = view.getUint32(localOffset + 14, true);
    const lCompressed = view.getUint32(localOffset + 18, true);
    const lSize = view.getUint32(localOffset + 22, true);
    const lNameLen = view.getUint16(localOffset + 26, true);
    const lExtraLen = view.getUint16(localOffset + 28, true);
    const dataStart = localOffset + 30 + lNameLen + lExtraLen;
    if (dataStart > cdOffset) throw damaged(`the local header of "${shown(name)}" runs into the central directory`);
    const disagrees = (what: string): ZipRefusedError => damaged(`the local header of "${shown(name)}" disagrees with the central directory (${what})`);
    if (!sameBytes(bytes.subarray(localOffset + 30, localOffset + 30 + lNameLen), rawName)) throw disagrees('name');
    if (lMethod !== method) throw disagrees('method');
    if ((lFlags & FLAG_ENCRYPTED) !== (flags & FLAG_ENCRYPTED)) throw disagrees('flags');
    if (hasZip64Extra(view, localOffset + 30 + lNameLen, lExtraLen)) throw zip64();
    // With a data descriptor the local fields may be zero; otherwise they must match.
    const descriptor = ((flags | lFlags) & FLAG_DESCRIPTOR) !== 0;
    const fits = (local: number, central: number): boolean => local === central || (descriptor && local === 0);
    if (!fits(lCrc, crc) || !fits(lCompressed, compressedSize) || !fits(lSize, size)) throw disagrees('CRC or sizes');
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > cdOffset) throw damaged(`the data of "${shown(name)}" runs into the central directory`);
    spans.push([localOffset, dataEnd]);
    out.push({ name, isDirectory, mode: type ? unixMode & 0o777 : null, size, method: method as 0 | 8, crc, dataStart, compressedSize });
  }
  if (p !== eocd) throw damaged('the central directory has more than its records');
  // No two entries may share bytes (several names for one piece of compressed data is a zip bomb).
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i]![0] < spans[i - 1]![1]) throw damaged('two entries share the same bytes');
  return out;
}
