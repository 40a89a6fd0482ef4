// Everything a message has to offer: dispute rows from the tables in its body, and a data file
// (with its rows) per attachment. A failure in one attachment is recorded and the rest go on.
import { createHash } from 'node:crypto';
import type { DataFileKind, EjRecordKind } from '@ejdesk/db';
import { limits } from '../limits.ts';
import { readTable, type Table } from './columns.ts';
import { htmlTableGrids } from './html.ts';
import { pdfGrids } from './pdf.ts';
import { workbookGrids } from './spreadsheet.ts';
import { decodeText, looksLikeText, textGrid } from './text.ts';
import { ExtractionError, unzipEach } from './zip.ts';

export type ExtractedRows = Table['rows'];

export interface ExtractedFile {
  kind: DataFileKind;
  name: string;
  rows: ExtractedRows;
  /** overage / succeeding files also land in the EJ table. */
  ejKind: Exclude<EjRecordKind, 'dispute'> | null;
  /** sha256 of the file's bytes: the same file mailed again under the same subject is not new. */
  fingerprint: string;
}

export interface Extraction {
  /** Dispute rows from the body's tables, each with its own fingerprint. */
  bodyRows: (ExtractedRows[number] & { fingerprint: string })[];
  files: ExtractedFile[];
  failures: string[];
  /** Tables that looked like tables but were not read as disputes, and why (for the run's summary). */
  skipped: string[];
  /** Files received as electronic journals (not read as tables), and whether each was new. */
  journals: { name: string; created: boolean }[];
}

/** What became of a file offered as a journal: received (new or already stored), or not a journal. */
export type JournalReceipt = 'new' | 'known' | 'not_journal';
/** Takes a file that may be an electronic journal, recognised by its content, never its name (process.ts). */
export type JournalReceiver = (bytes: Uint8Array, name: string) => Promise<JournalReceipt>;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
const extension = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
const words = (value: string) => value.toLowerCase().replace(/[_\-.]+/g, ' ');

/** text / missing / missing_txn / between_successful, from the file's name, else the subject. */
function textKind(name: string, subject: string): DataFileKind {
  for (const source of [words(name), words(subject)]) {
    if (/missing\s*(txn|transaction)/.test(source)) return 'missing_txn';
    if (/between\s*success/.test(source)) return 'between_successful';
    if (/missing/.test(source)) return 'missing';
  }
  return 'text';
}

function ejKindOf(name: string, subject: string): ExtractedFile['ejKind'] {
  for (const source of [words(name), words(subject)]) {
    if (/overage/.test(source)) return 'overage';
    if (/succeed|successing/.test(source)) return 'succeeding';
  }
  return null;
}

/** Rows read so far, and notes on tables skipped, for one message. */
class Reader {
  skipped: string[] = [];

  /** Dispute rows of every grid; `where` names the source in a skipped table's note. */
  rowsOfGrids(grids: unknown[][][], where: string): ExtractedRows {
    const rows: ExtractedRows = [];
    grids.forEach((grid, i) => {
      const table = readTable(grid, limits.rowsPerTable);
      if (table.skipped) this.skipped.push(`${where}${grids.length > 1 ? ` (table ${i + 1})` : ''}: ${table.skipped}`);
      rows.push(...table.rows);
    });
    return rows.slice(0, limits.rowsPerTable);
  }

  textRows(bytes: Uint8Array, where: string, charset?: string): ExtractedRows {
    return this.rowsOfGrids([textGrid(decodeText(bytes, charset), limits.textLines)], where);
  }

  async rowsOfFormat(format: Format, bytes: Uint8Array, passwords: readonly string[], where: string, charset?: string): Promise<ExtractedRows> {
    switch (format) {
      case 'text':
        return this.textRows(bytes, where, charset);
      case 'excel':
        return this.rowsOfGrids(await workbookGrids(bytes, limits.rowsPerTable), where);
      case 'pdf': {
        const grids = await pdfGrids(bytes, passwords);
        const rows = this.rowsOfGrids(grids, where);
        // A dispute header with nothing under it that reads as a row: say so rather than stay silent.
        if (rows.length === 0 && grids.some((grid) => readTable(grid, 1).headerFound)) {
          throw new ExtractionError('the PDF has a dispute table header, but no row under it has an ATM ID');
        }
        return rows;
      }
      default:
        // Other formats: whatever reads as delimited text.
        return looksLikeText(bytes) ? this.textRows(bytes, where, charset) : [];
    }
  }
}

type Format = 'text' | 'excel' | 'pdf' | 'zip' | 'other';
function formatOf(name: string, contentType: string): Format {
  const ext = extension(name);
  if (['txt', 'csv', 'tsv', 'text', 'log', 'dat'].includes(ext) || /^text\/(plain|csv|tab-separated-values)/.test(contentType)) return 'text';
  if (ext === 'xlsx' || contentType.includes('spreadsheetml')) return 'excel';
  if (ext === 'pdf' || contentType === 'application/pdf') return 'pdf';
  if (ext === 'zip' || /^application\/(x-)?zip/.test(contentType)) return 'zip';
  return 'other';
}

/** Text (of a text format, or of none) that may be a journal: data formats and binary files are not. */
const mayBeJournal = (format: Format, bytes: Uint8Array) => (format === 'text' || format === 'other') && looksLikeText(bytes);

/** An attachment as the mail parser hands it over, one at a time. */
export interface IncomingAttachment {
  filename?: string | undefined;
  contentType?: string | undefined;
  charset?: string | undefined;
  /** The whole file, or only its first bytes when it is not worth keeping (see `whole`). */
  content: Uint8Array;
  size: number;
  sha256: string;
  /** False when only the start was kept: an image, a binary "other" file, one over the limit. */
  whole: boolean;
}

/**
 * An attachment that wraps others rather than holding data: a forwarded message, S/MIME, Outlook's
 * TNEF (winmail.dat). Read by opening it (see wrapped.ts); a detached signature has nothing to read.
 */
export function wrapperOf(filename: string | undefined, contentType: string | undefined): 'message' | 'smime' | 'tnef' | 'signature' | null {
  const type = (contentType ?? '').toLowerCase();
  const ext = extension(filename ?? '');
  if (type === 'message/rfc822' || ext === 'eml') return 'message';
  if (/^application\/(x-)?pkcs7-signature/.test(type) || ext === 'p7s') return 'signature';
  if (/^application\/(x-)?pkcs7-mime/.test(type) || ext === 'p7m') return 'smime';
  if (type === 'application/ms-tnef' || type === 'application/vnd.ms-tnef' || (filename ?? '').toLowerCase() === 'winmail.dat') return 'tnef';
  return null;
}

/**
 * Whether an attachment's bytes are worth keeping whole, from its name, type and first bytes: data
 * formats are (up to the size limit); images and binary files of other formats are not (only their
 * hash and size are needed).
 */
export function worthKeeping(filename: string | undefined, contentType: string | undefined, start: Uint8Array, size: number): boolean {
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('image/') || size > limits.attachmentBytes) return false;
  if (wrapperOf(filename, type)) return true;
  return formatOf(filename ?? '', type) !== 'other' || looksLikeText(start);
}

/**
 * A message's extraction, fed part by part (the parser hands over one attachment at a time, so
 * only one attachment's bytes are held at once), then read with result().
 */
export class Extractor {
  private readonly reader = new Reader();
  private readonly files: ExtractedFile[] = [];
  private readonly failures: string[] = [];
  private readonly journals: Extraction['journals'] = [];
  private bodyRows: Extraction['bodyRows'] = [];
  private count = 0;

  constructor(
    private readonly subject: string,
    private readonly passwords: readonly string[],
    /** Where journals go; without it every file is read as data. */
    private readonly journal?: JournalReceiver,
  ) {}

  /** True when the file was received as a journal (and so is not read as a table). */
  private async tookJournal(format: Format, bytes: Uint8Array, name: string): Promise<boolean> {
    if (!this.journal || !mayBeJournal(format, bytes)) return false;
    const receipt = await this.journal(bytes, name);
    if (receipt === 'not_journal') return false;
    this.journals.push({ name, created: receipt === 'new' });
    return true;
  }

  /**
   * The files in a ZIP (recursively, to limits.zipDepth), one at a time: journals received, the
   * rest read by their own format as "other" files, kept only when the whole archive could be read.
   */
  private async zipFiles(name: string, bytes: Uint8Array, depth: number, out: ExtractedFile[] = []): Promise<ExtractedFile[]> {
    for await (const entry of unzipEach(bytes, this.passwords)) {
      const entryName = `${name}/${entry.name}`;
      const format = formatOf(entry.name, '');
      if (format === 'zip') {
        if (depth >= limits.zipDepth) throw new ExtractionError(`${entryName}: archives nested deeper than ${limits.zipDepth}`);
        await this.zipFiles(entryName, entry.data, depth + 1, out);
        continue;
      }
      if (await this.tookJournal(format, entry.data, entryName)) continue;
      out.push({
        kind: 'other',
        name: entryName,
        rows: await this.reader.rowsOfFormat(format, entry.data, this.passwords, entryName),
        ejKind: ejKindOf(entry.name, this.subject),
        fingerprint: sha256(entry.data),
      });
    }
    return out;
  }

  /** A body's dispute rows: the message's own, and those of each message wrapped inside it. */
  body(html: string, text: string, where = 'mail body'): void {
    const grids: unknown[][][] = html ? htmlTableGrids(html.slice(0, limits.htmlBytes)) : [];
    let rows = this.reader.rowsOfGrids(grids, where);
    if (rows.length === 0 && text) rows = this.reader.rowsOfGrids([textGrid(text, limits.textLines)], where);
    this.bodyRows.push(...rows.map((r) => ({ ...r, fingerprint: sha256(JSON.stringify(r.row)) })));
  }

  /** A file that could not be opened at all (a wrapper: see wrapped.ts), recorded like any failure. */
  failed(name: string, err: unknown): void {
    this.failures.push(`${name}: ${err instanceof ExtractionError ? err.message : `could not be read (${(err as Error)?.message ?? String(err)})`}`);
  }

  async attachment(attachment: IncomingAttachment): Promise<void> {
    const name = (attachment.filename ?? '').replace(/[\\/]/g, '_').slice(0, 200) || `attachment-${++this.count}`;
    const contentType = (attachment.contentType ?? '').toLowerCase();
    // Logos and signatures; a file out of a TNEF or ZIP has no type, so its name says it is an image.
    if (contentType.startsWith('image/') || /\.(png|jpe?g|gif|bmp|tiff?|emf|wmf)$/i.test(name)) return;
    try {
      if (attachment.size > limits.attachmentBytes) {
        throw new ExtractionError(`it is ${limits.mb(attachment.size)}, over the ${limits.mb(limits.attachmentBytes)} extraction limit`);
      }
      const format = formatOf(name, contentType);
      const ejKind = ejKindOf(name, this.subject);
      if (!attachment.whole) {
        // A binary file of no known format: kept as an "other" file without rows.
        this.files.push({ kind: 'other', name, rows: [], ejKind, fingerprint: attachment.sha256 });
        return;
      }
      if (format === 'zip') {
        this.files.push(...(await this.zipFiles(name, attachment.content, 1)));
        return;
      }
      if (await this.tookJournal(format, attachment.content, name)) return;
      const kind: DataFileKind = format === 'text' ? textKind(name, this.subject) : format;
      const rows = await this.reader.rowsOfFormat(format, attachment.content, this.passwords, name, attachment.charset);
      this.files.push({ kind, name, rows, ejKind, fingerprint: attachment.sha256 });
    } catch (err) {
      // Anything a hostile file makes a parser throw is this file's failure, not the run's.
      this.failed(name, err);
    }
  }

  result(): Extraction {
    return { bodyRows: this.bodyRows, files: this.files, failures: this.failures, skipped: this.reader.skipped, journals: this.journals };
  }
}
