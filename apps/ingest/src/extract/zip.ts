// ZIP archives (and xlsx files, which are ZIPs) opened with hard limits, so that a zip bomb or a
// lying size header costs at most the limit: every entry is inflated through a writer that stops
// at its cap, whatever the archive claims.
import { crc32, inflateRawSync } from 'node:zlib';
import { BlobReader, configure, Uint8ArrayReader, Uint8ArrayWriter, Writer, ZipReader, type FileEntry } from '@zip.js/zip.js';
import { limits } from '../limits.ts';

// No web workers: the ingester parallelises across messages, and workers cost a start-up each.
configure({ useWebWorkers: false });

export class ExtractionError extends Error {}

class CappedWriter extends Writer<Uint8Array> {
  private chunks: Uint8Array[] = [];
  private total = 0;
  constructor(
    private readonly cap: number,
    private readonly name: string,
  ) {
    super();
  }
  override async writeUint8Array(array: Uint8Array): Promise<void> {
    this.total += array.length;
    if (this.total > this.cap) throw new ExtractionError(`${this.name} expands beyond ${limits.mb(this.cap)} (zip bomb?)`);
    this.chunks.push(array);
  }
  override async getData(): Promise<Uint8Array> {
    return Buffer.concat(this.chunks);
  }
}

interface ZipFile {
  name: string;
  data: Uint8Array;
}

const isPasswordError = (err: unknown) => err instanceof Error && /password/i.test(err.message);

/**
 * An unencrypted entry this small (compressed) is read whole and inflated by zlib in one call, capped
 * by maxOutputLength, its CRC-32 checked: zip.js's stream of transforms cost a millisecond an entry,
 * a third of the time in an archive of a day's journals. Bigger or encrypted entries are streamed.
 */
const wholeEntryBytes = 4 * 2 ** 20;
const STORED = 0;
const DEFLATED = 8;

async function inflateWhole(entry: FileEntry, cap: number): Promise<Uint8Array> {
  const bomb = () => new ExtractionError(`${entry.filename} expands beyond ${limits.mb(cap)} (zip bomb?)`);
  const raw = await entry.getData(new Uint8ArrayWriter(), { passThrough: true });
  let data: Uint8Array;
  if (entry.compressionMethod === STORED) data = raw;
  else {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, cap) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw bomb();
      throw new ExtractionError(`${entry.filename} is damaged (${(err as Error).message})`);
    }
  }
  if (data.length > cap) throw bomb();
  if (entry.crc32 !== undefined && crc32(data) !== entry.crc32) throw new ExtractionError(`${entry.filename} is damaged (its CRC-32 does not match)`);
  return data;
}

async function inflate(entry: FileEntry, password: string | undefined, cap: number): Promise<Uint8Array> {
  const method = entry.compressionMethod;
  if (password === undefined && !entry.encrypted && entry.compressedSize <= wholeEntryBytes && (method === DEFLATED || method === STORED)) {
    return inflateWhole(entry, cap);
  }
  return entry.getData(new CappedWriter(cap, entry.filename), password === undefined ? {} : { password });
}

/** How much an archive may hold: the mail's bounds by default; a folder the operator names is read with wider ones. */
interface ZipBounds {
  entries: number;
  entryBytes: number;
  totalBytes: number;
}
const mailBounds: ZipBounds = { entries: limits.zipEntries, entryBytes: limits.unzippedEntryBytes, totalBytes: limits.unzippedTotalBytes };
/** A folder's archive is the operator's own: more entries than mail may carry, still each within the attachment limit. */
export const folderBounds: ZipBounds = { entries: 100_000, entryBytes: limits.attachmentBytes, totalBytes: Number.POSITIVE_INFINITY };

/**
 * Every file in an archive, inflated within the bounds, one at a time: only the file in hand is
 * held (a folder's archive of a thousand journals is read from disk entry by entry). An encrypted
 * archive is opened with the first of `passwords` that works; when none does, the error says so
 * (without the passwords).
 */
export async function* unzipEach(source: Uint8Array | Blob, passwords: readonly string[] = [], bounds: ZipBounds = mailBounds): AsyncGenerator<ZipFile> {
  const reader = new ZipReader(source instanceof Uint8Array ? new Uint8ArrayReader(source) : new BlobReader(source));
  // The central directory is read twice, an entry at a time, and never kept: once to count the files
  // (refused before anything is inflated when there are too many), once to inflate them. Kept whole
  // (getEntries), it cost 7 KB of memory an entry: 300 MB for an archive of 42,000 journals.
  const filesOf = async function* (): AsyncGenerator<FileEntry> {
    for await (const entry of reader.getEntriesGenerator()) if (!entry.directory) yield entry;
  };
  const countFiles = async () => {
    let files = 0;
    for await (const entry of reader.getEntriesGenerator()) if (!entry.directory) files++;
    return files;
  };
  try {
    let count: number;
    try {
      count = await countFiles();
    } catch (err) {
      throw new ExtractionError(`not a readable ZIP archive (${(err as Error).message})`);
    }
    if (count > bounds.entries) throw new ExtractionError(`the archive holds ${count} files (limit ${bounds.entries})`);
    let total = 0;
    let password: string | undefined;
    for await (const entry of filesOf()) {
      const cap = Math.min(bounds.entryBytes, bounds.totalBytes - total);
      let data: Uint8Array | undefined;
      if (!entry.encrypted) data = await inflate(entry, undefined, cap);
      else {
        const candidates = password === undefined ? passwords : [password];
        for (const candidate of candidates) {
          try {
            data = await inflate(entry, candidate, cap);
            password = candidate;
            break;
          } catch (err) {
            if (!isPasswordError(err)) throw err;
          }
        }
        if (!data) {
          throw new ExtractionError(
            passwords.length === 0
              ? `${entry.filename} is password-protected and no password is stored for the sender's bank`
              : `${entry.filename} is password-protected and the stored password does not open it`,
          );
        }
      }
      total += data.length;
      yield { name: entry.filename, data };
    }
  } finally {
    await reader.close().catch(() => undefined);
  }
}

/** Every file in an archive at once (a workbook's parts), within the mail's bounds. */
export async function unzip(bytes: Uint8Array, passwords: readonly string[] = []): Promise<ZipFile[]> {
  const out: ZipFile[] = [];
  for await (const file of unzipEach(bytes, passwords)) out.push(file);
  return out;
}
