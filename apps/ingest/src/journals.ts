// Electronic journals arriving with the mail or in a folder: every text file is offered to the
// journals domain, whose parser recognises a journal by its content (never its name, from its first
// 2,000 lines) and which stores it once by SHA-256, joins the rest of a split day and matches the
// disputes it answers; a file that is no journal is answered so at once, nothing stored.
import { openAsBlob } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { receiveJournal, type Db } from '@ejdesk/db';
import type { JournalReceiver } from './extract/index.ts';
import { looksLikeText } from './extract/text.ts';
import { ExtractionError, folderBounds, unzipEach } from './extract/zip.ts';
import { limits } from './limits.ts';
import type { PathContents } from './sources/files.ts';

/** A transaction PostgreSQL ended to break a deadlock (or a serialization failure): it may run again. */
export const isDeadlock = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '40P01' || e.code === '40001') return true;
  }
  return false;
};

/**
 * The journals of one message: each received inside the message's transaction (so a crash loses
 * and repeats nothing), in a savepoint of its own, so that a journal that fails is that file's
 * failure and the message's other writes stand. A deadlock is not one file's failure: it is kept
 * for processing to run the whole message again.
 */
export class MailJournals {
  deadlock: unknown = null;

  constructor(
    private readonly tx: Db,
    private readonly emailId: number,
  ) {}

  readonly receive: JournalReceiver = async (bytes, name) => {
    try {
      const received = await this.tx.transaction((savepoint) =>
        receiveJournal(savepoint as unknown as Db, { bytes, fileName: name, source: 'mail', emailId: this.emailId }),
      );
      return 'notJournal' in received ? 'not_journal' : received.created ? 'new' : 'known';
    } catch (err) {
      if (isDeadlock(err)) this.deadlock ??= err;
      throw err;
    }
  };
}

/** What a folder's journals came to, for the run's summary. */
interface FolderJournals {
  received: number;
  created: number;
  /** Files that are neither mail nor a journal (named in the summary, not failures). */
  notJournals: string[];
  /** Files that could not be read or received, with why. */
  failures: string[];
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * Receive the journals of a path: its files that are neither mail nor mbox, and the files inside
 * its ZIPs (read from disk one entry at a time), each in its own transaction.
 */
export async function receiveFolderJournals(db: Db, contents: PathContents, signal?: AbortSignal): Promise<FolderJournals> {
  const out: FolderJournals = { received: 0, created: 0, notJournals: [], failures: [] };
  const take = async (bytes: Uint8Array, name: string) => {
    if (!looksLikeText(bytes)) return void out.notJournals.push(name);
    const received = await db.transaction((tx) => receiveJournal(tx as unknown as Db, { bytes, fileName: name, source: 'folder', emailId: null }));
    if ('notJournal' in received) return void out.notJournals.push(name);
    out.received++;
    if (received.created) out.created++;
  };
  const archive = async (source: Uint8Array | Blob, name: string, depth: number): Promise<void> => {
    for await (const entry of unzipEach(source, [], folderBounds)) {
      if (signal?.aborted) return;
      const entryName = `${name}/${entry.name}`;
      if (isZip(entry.data) || /\.zip$/i.test(entry.name)) {
        if (depth >= limits.zipDepth) throw new ExtractionError(`${entryName}: archives nested deeper than ${limits.zipDepth}`);
        await archive(entry.data, entryName, depth + 1);
      } else await take(entry.data, entryName);
    }
  };
  for (const file of contents.files) {
    if (signal?.aborted) break;
    if (file.kind === 'eml' || file.kind === 'mbox') continue;
    try {
      if (file.kind === 'zip') await archive(await openAsBlob(file.path), file.name, 1);
      else {
        const { size } = await stat(file.path);
        if (size > limits.attachmentBytes) throw new ExtractionError(`it is ${limits.mb(size)}, over the ${limits.mb(limits.attachmentBytes)} limit`);
        await take(await readFile(file.path), file.name);
      }
    } catch (err) {
      out.failures.push(`${file.name}: ${err instanceof ExtractionError ? err.message : `could not be received (${(err as Error)?.message ?? String(err)})`}`);
    }
  }
  return out;
}
