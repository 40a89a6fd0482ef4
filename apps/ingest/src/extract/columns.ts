// The 16 labelled columns of an extracted dispute row (docs/screens.md) and the many ways senders
// head them. A table is read as dispute data when its header names at least three of the columns,
// among them the ATM ID and a transaction key (Txn No / RRN, or Card No); its other columns are kept
// only in the email's JSON data. A table that looks like one but falls short is reported as skipped.
import type { ExtractedRowValues } from '@ejdesk/db';
import { limits } from '../limits.ts';

/** One extracted row: the same 16 columns the database stores (packages/db). */
export type DisputeRow = ExtractedRowValues;
export type Column = keyof DisputeRow;
type Parse = 'text' | 'date' | 'money';

/** Header spellings, compared lower-case with everything but letters and digits removed. */
const columns: Record<Column, { parse: Parse; headers: string[] }> = {
  atmId: { parse: 'text', headers: ['atmid', 'atm', 'atmno', 'terminalid', 'terminal', 'tid'] },
  cardNo: { parse: 'text', headers: ['cardno', 'cardnumber', 'card', 'pan', 'maskedcardno'] },
  txtNo: { parse: 'text', headers: ['txtno', 'txnno', 'transactionno', 'transactionnumber', 'txnnumber', 'rrn', 'stan', 'txnid'] },
  txtDate: { parse: 'date', headers: ['txtdateddmmyy', 'txtdate', 'txndate', 'transactiondate', 'date'] },
  txtAmt: { parse: 'money', headers: ['txtamt', 'txnamt', 'txnamount', 'transactionamt', 'transactionamount', 'amount', 'amt'] },
  disputeAmt: { parse: 'money', headers: ['disputeamt', 'disputeamount', 'disputedamount'] },
  overage: { parse: 'money', headers: ['overage', 'overageamt', 'overageamount', 'excess', 'excessamount'] },
  mspRemarks: { parse: 'text', headers: ['mspremarks', 'remarks', 'remark'] },
  mspRefNo: { parse: 'text', headers: ['msprefno', 'refno', 'referenceno', 'mspreference', 'reference'] },
  shortDesc: { parse: 'text', headers: ['shortdesc', 'shortdescejerror'] },
  ejError: { parse: 'text', headers: ['ejerror', 'error', 'ejstatus'] },
  complaintDate: {
    parse: 'date',
    headers: ['complaintdatereceivedfrommspddmmyy', 'complaintdatereceivedfrommsp', 'complaintdate', 'receivedfrommsp'],
  },
  shortDescription: { parse: 'text', headers: ['shortdescription', 'description'] },
  mailReceivedFrom: { parse: 'text', headers: ['mailreceivedfrom', 'receivedfrom'] },
  mailSubject: { parse: 'text', headers: ['mailsubject', 'subject'] },
  responseCode: { parse: 'text', headers: ['responsecode', 'response', 'respcode', 'rc'] },
};

const byHeader = new Map<string, Column>(Object.entries(columns).flatMap(([column, { headers }]) => headers.map((h) => [h, column as Column] as const)));
const squash = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The column a header cell names, if any. */
export const columnOf = (header: string): Column | undefined => byHeader.get(squash(header));

const MAX_TEXT = limits.textChars;
/** PostgreSQL text cannot hold NUL, and control characters only garble a screen. */
export const cleanText = (value: string, max = MAX_TEXT): string =>
  value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '')
    .trim()
    .slice(0, max);

const pad = (n: number) => String(n).padStart(2, '0');
function isoDate(year: number, month: number, day: number): string | null {
  if (year < 100) year += 2000;
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null; // 31/02 and the like
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** Dates as senders write them: DD/MM/YY(YY) (SPEC's format), DD-MM-YYYY, DD.MM.YYYY, YYYY-MM-DD, or an Excel date. */
export function parseDate(value: unknown): string | null {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : isoDate(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  }
  const text = String(value ?? '').trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[ T].*)?$/.exec(text);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  return null;
}

/** Amounts with currency signs, thousands separators or in brackets; null beyond numeric(14,2). */
export function parseMoney(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) < 1e12 ? value.toFixed(2) : null;
  const text = String(value ?? '').trim();
  const number = /\d[\d,]*(?:\.\d+)?/.exec(text);
  // One number, with nothing numeric around it ("1.2.3", "1e15", "=1+1" are not amounts).
  if (!number || /\d/.test(text.slice(0, number.index) + text.slice(number.index + number[0].length))) return null;
  const negative = /^\(.*\)$/.test(text) || /^-/.test(text);
  const n = Number(number[0].replace(/,/g, '')) * (negative ? -1 : 1);
  return Number.isFinite(n) && Math.abs(n) < 1e12 ? n.toFixed(2) : null;
}

const emptyRow = (): DisputeRow => ({
  atmId: '',
  cardNo: '',
  txtNo: '',
  txtDate: null,
  txtAmt: null,
  disputeAmt: null,
  overage: null,
  mspRemarks: '',
  mspRefNo: '',
  shortDesc: '',
  ejError: '',
  complaintDate: null,
  shortDescription: '',
  mailReceivedFrom: '',
  mailSubject: '',
  responseCode: '',
});

/** An email's JSON data keeps its first 1,000 records (see process.ts). */
export const JSON_RECORDS = 1000;

export interface Table {
  /** One entry per data row: the dispute columns and, for the email's JSON data, the row as sent. */
  /** `record` is kept for the first JSON_RECORDS rows only: the email's JSON data holds no more. */
  rows: { row: DisputeRow; record: Record<string, string> }[];
}

const cellText = (value: unknown): string =>
  value instanceof Date ? (Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)) : cleanText(String(value ?? ''));

/** Display names, for saying which columns a skipped table's header named. */
const labels: Record<Column, string> = {
  atmId: 'ATM ID',
  cardNo: 'Card No',
  txtNo: 'Txn No',
  txtDate: 'Txn Date',
  txtAmt: 'Txn Amount',
  disputeAmt: 'Dispute Amount',
  overage: 'Overage',
  mspRemarks: 'MSP Remarks',
  mspRefNo: 'MSP Ref No',
  shortDesc: 'Short Desc',
  ejError: 'EJ Error',
  complaintDate: 'Complaint Date',
  shortDescription: 'Short Description',
  mailReceivedFrom: 'Mail Received From',
  mailSubject: 'Mail Subject',
  responseCode: 'Response Code',
};

/** Whether a header's named columns make a dispute table, and if not, why not. */
export function judgeHeader(named: ReadonlySet<Column>): string | null {
  const problems: string[] = [];
  if (!named.has('atmId')) problems.push('no ATM ID');
  if (!named.has('txtNo') && !named.has('cardNo')) problems.push('no Txn No, RRN or Card No');
  if (named.size < 3) problems.push(`only ${named.size} of the 16 dispute columns`);
  return problems.length ? problems.join(', ') : null;
}

const describeNamed = (named: ReadonlySet<Column>) => [...named].map((c) => labels[c]).join(', ');

interface TableResult extends Table {
  /** Why a grid that looked like a table (2+ dispute columns in a row) was not read as disputes. */
  skipped?: string;
  /** Whether a dispute header was found at all (rows may still be 0). */
  headerFound: boolean;
}

/**
 * What makes a row a transaction: an ATM ID alone is not enough, since a PDF page's running header
 * or footer ("Apex Bank plc ... Confidential", "Page 3") lands under the ATM ID and remarks columns.
 */
const transactionFields = ['cardNo', 'txtNo', 'txtDate', 'txtAmt', 'disputeAmt', 'overage', 'complaintDate'] as const satisfies readonly Column[];

/**
 * Read a grid of cells as dispute rows: the header is the first row (of the first 20) that passes
 * judgeHeader; rows after it with an ATM ID and a transaction field (see transactionFields) are data.
 */
export function readTable(grid: unknown[][], maxRows: number): TableResult {
  let best: Set<Column> | undefined;
  const headerAt = grid.slice(0, 20).findIndex((cells) => {
    const named = new Set(cells.map((c) => columnOf(cellText(c))).filter((c): c is Column => !!c));
    if (!best || named.size > best.size) best = named;
    return judgeHeader(named) === null;
  });
  if (headerAt < 0) {
    const skipped = best && best.size >= 2 ? `not read as disputes: its header names ${describeNamed(best)} (${judgeHeader(best)})` : undefined;
    return { rows: [], headerFound: false, ...(skipped ? { skipped } : {}) };
  }
  const headers = grid[headerAt]!.map((c) => cellText(c));
  const mapped = headers.map((h) => columnOf(h));
  const rows: Table['rows'] = [];
  for (const cells of grid.slice(headerAt + 1)) {
    if (rows.length >= maxRows) break;
    // A header repeated on a later page is not data.
    if (cells.length && cells.every((c, i) => cellText(c) === headers[i])) continue;
    const row = emptyRow();
    const keepRecord = rows.length < JSON_RECORDS;
    const record: Record<string, string> = {};
    cells.forEach((value, i) => {
      const header = headers[i];
      if (header && keepRecord) record[header] = cellText(value);
      const column = mapped[i];
      if (!column) return;
      const { parse } = columns[column];
      if (parse === 'text') (row[column] as string) = cellText(value);
      else if (parse === 'date') (row[column] as string | null) = parseDate(value);
      else (row[column] as string | null) = parseMoney(value);
    });
    if (row.atmId && transactionFields.some((f) => row[f])) rows.push({ row, record });
  }
  return { rows, headerFound: true };
}

/** The number of distinct dispute columns a row of header cells names (to choose a delimiter). */
export const namedColumns = (cells: readonly string[]): number => new Set(cells.map((c) => columnOf(c)).filter(Boolean)).size;
