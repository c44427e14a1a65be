// A small reader of the ZIP central directory (APPNOTE 6.3), so that names, sizes and
// flags are known before a single byte is inflated: bombs, encrypted entries and
// oversized archives are refused from the directory alone. Inflation is fflate's.
import { inflateSync } from 'fflate';
import iconv from 'iconv-lite';
import { type ExtractionLimits, RATIO_MIN_BYTES } from './limits.js';
import { SkipExtraction } from './types.js';

export interface ZipEntry {
  name: string;
  /** Bytes stored in the archive. */
  compressedSize: number;
  /** Uncompressed size as the directory declares it; inflation never yields more. */
  size: number;
  /** 0 stored, 8 deflate; anything else is unsupported. */
  method: number;
  encrypted: boolean;
  directory: boolean;
  localOffset: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Entries the directory holds beyond the `maxEntries` that were read. */
  omitted: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

/** Local file header or, for an empty archive, the end record. */
export const isZip = (b: Buffer): boolean =>
  b.length >= 22 && (b.readUInt32LE(0) === LOCAL || b.readUInt32LE(0) === EOCD);

function findEndRecord(b: Buffer): number {
  const stop = Math.max(0, b.length - 22 - MAX_COMMENT);
  for (let i = b.length - 22; i >= stop; i--) if (b.readUInt32LE(i) === EOCD) return i;
  throw new Error('corrupt zip: no end of central directory');
}

/** Reads the directory; throws an Error saying what is wrong with a corrupt archive. */
export function readZipDirectory(b: Buffer, maxEntries = Number.POSITIVE_INFINITY): ZipDirectory {
  const end = findEndRecord(b);
  let total = b.readUInt16LE(end + 10);
  let offset = b.readUInt32LE(end + 16);
  if (
    (total === 0xffff || offset === 0xffffffff) &&
    end >= 20 &&
    b.readUInt32LE(end - 20) === ZIP64_LOCATOR
  ) {
    const at = Number(b.readBigUInt64LE(end - 12));
    if (at + 56 > b.length || b.readUInt32LE(at) !== ZIP64_EOCD)
      throw new Error('corrupt zip: bad zip64 record');
    total = Number(b.readBigUInt64LE(at + 32));
    offset = Number(b.readBigUInt64LE(at + 48));
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let n = 0; n < total && entries.length < maxEntries; n++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== CENTRAL)
      throw new Error('corrupt zip: bad central directory');
    const flags = b.readUInt16LE(at + 8);
    const nameLength = b.readUInt16LE(at + 28);
    const extraLength = b.readUInt16LE(at + 30);
    const commentLength = b.readUInt16LE(at + 32);
    const rawName = b.subarray(at + 46, at + 46 + nameLength);
    // Bit 11 marks UTF-8 names; without it the name is CP437 (APPNOTE appendix D).
    const name = flags & 0x800 ? rawName.toString('utf8') : iconv.decode(rawName, 'cp437');
    const sizes = {
      compressedSize: b.readUInt32LE(at + 20),
      size: b.readUInt32LE(at + 24),
      localOffset: b.readUInt32LE(at + 42),
    };
    applyZip64Extra(b.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), sizes);
    entries.push({
      name,
      ...sizes,
      method: b.readUInt16LE(at + 10),
      encrypted: (flags & 1) === 1,
      directory: name.endsWith('/'),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, omitted: Math.max(0, total - entries.length) };
}

/** The zip64 extra field (id 1) carries, in order, each size that is 0xFFFFFFFF in the header. */
function applyZip64Extra(
  extra: Buffer,
  sizes: { compressedSize: number; size: number; localOffset: number },
): void {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const length = extra.readUInt16LE(i + 2);
    if (id === 1) {
      let p = i + 4;
      const next = (): number => {
        const value = p + 8 <= extra.length ? Number(extra.readBigUInt64LE(p)) : 0;
        p += 8;
        return value;
      };
      if (sizes.size === 0xffffffff) sizes.size = next();
      if (sizes.compressedSize === 0xffffffff) sizes.compressedSize = next();
      if (sizes.localOffset === 0xffffffff) sizes.localOffset = next();
      return;
    }
    i += 4 + length;
  }
}

/** Inflates one entry into at most its declared size; throws for encrypted or unknown methods. */
export function inflateEntry(b: Buffer, entry: ZipEntry): Buffer {
  if (entry.encrypted) throw new Error('encrypted');
  const at = entry.localOffset;
  if (at + 30 > b.length || b.readUInt32LE(at) !== LOCAL)
    throw new Error(`corrupt zip: bad local header for ${entry.name}`);
  const start = at + 30 + b.readUInt16LE(at + 26) + b.readUInt16LE(at + 28);
  const data = b.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.subarray(0, entry.size);
  if (entry.method !== 8) throw new Error(`unsupported zip compression method ${entry.method}`);
  // A given output buffer is never grown, so a lying declared size cannot inflate a bomb.
  const out = inflateSync(data, { out: new Uint8Array(entry.size) });
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** Why an entry must not be inflated, or null when it may: bombs by ratio, and the archive's byte budget. */
export function refuseEntry(entry: ZipEntry, limits: ExtractionLimits, inflatedSoFar: number): string | null {
  if (entry.encrypted) return 'encrypted';
  if (entry.size > RATIO_MIN_BYTES && entry.size / Math.max(1, entry.compressedSize) > limits.zipMaxRatio) {
    return `zip bomb: ratio ${Math.round(entry.size / Math.max(1, entry.compressedSize))} > ${limits.zipMaxRatio}`;
  }
  if (inflatedSoFar + entry.size > limits.zipMaxTotalUncompressed) return 'zip size limit';
  return null;
}

/** An office package (OOXML, ODF) whose parts are read within the zip limits. */
export interface ZipPackage {
  has(name: string): boolean;
  /** The part's bytes, or null when absent; throws SkipExtraction when a limit refuses it. */
  read(name: string): Buffer | null;
  /** The part as UTF-8 text (office XML is UTF-8 by both standards), or null when absent. */
  text(name: string): string | null;
}

/** Office packages hold hundreds of parts (one per slide, sheet, image); this bounds a hostile directory. */
const MAX_PACKAGE_PARTS = 20_000;

export function openPackage(b: Buffer, limits: ExtractionLimits): ZipPackage {
  const byName = new Map(readZipDirectory(b, MAX_PACKAGE_PARTS).entries.map((e) => [e.name, e]));
  let inflated = 0;
  const read = (name: string): Buffer | null => {
    const entry = byName.get(name);
    if (!entry) return null;
    const refusal = refuseEntry(entry, limits, inflated);
    if (refusal) throw new SkipExtraction(refusal);
    inflated += entry.size;
    return inflateEntry(b, entry);
  };
  return { has: (name) => byName.has(name), read, text: (name) => read(name)?.toString('utf8') ?? null };
}
