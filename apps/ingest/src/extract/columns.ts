// The 16 labelled columns of an extracted dispute row (SPEC.md section 3) and the many ways senders
// head them. A table is read as dispute data when its header names the ATM ID and at least one
// other column; its other columns are kept only in the email's JSON data.
import type { ExtractedRowValues } from '@ejdesk/db';

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

const byHeader = new Map<string, Column>(
  Object.entries(columns).flatMap(([column, { headers }]) => headers.map((h) => [h, column as Column] as const)),
);
const squash = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The column a header cell names, if any. */
export const columnOf = (header: string): Column | undefined => byHeader.get(squash(header));

const MAX_TEXT = 500;
/** PostgreSQL text cannot hold NUL, and control characters only garble a screen. */
export const cleanText = (value: string, max = MAX_TEXT): string =>
  value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
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

export const emptyRow = (): DisputeRow => ({
  atmId: '', cardNo: '', txtNo: '', txtDate: null, txtAmt: null, disputeAmt: null, overage: null, mspRemarks: '',
  mspRefNo: '', shortDesc: '', ejError: '', complaintDate: null, shortDescription: '', mailReceivedFrom: '',
  mailSubject: '', responseCode: '',
});

export interface Table {
  /** One entry per data row: the dispute columns and, for the email's JSON data, the row as sent. */
  rows: { row: DisputeRow; record: Record<string, string> }[];
}

const cellText = (value: unknown): string =>
  value instanceof Date ? (Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)) : cleanText(String(value ?? ''));

/**
 * Read a grid of cells as dispute rows: the header is the first row (of the first 20) that names
 * the ATM ID and another column; rows after it with an ATM ID are data. Null when no header is found.
 */
export function readTable(grid: unknown[][], maxRows: number): Table | null {
  const headerAt = grid.slice(0, 20).findIndex((cells) => {
    const named = new Set(cells.map((c) => columnOf(cellText(c))).filter(Boolean));
    return named.has('atmId') && named.size >= 2;
  });
  if (headerAt < 0) return null;
  const headers = grid[headerAt]!.map((c) => cellText(c));
  const mapped = headers.map((h) => columnOf(h));
  const rows: Table['rows'] = [];
  for (const cells of grid.slice(headerAt + 1)) {
    if (rows.length >= maxRows) break;
    const row = emptyRow();
    const record: Record<string, string> = {};
    cells.forEach((value, i) => {
      const header = headers[i];
      if (header) record[header] = cellText(value);
      const column = mapped[i];
      if (!column) return;
      const { parse } = columns[column];
      if (parse === 'text') (row[column] as string) = cellText(value);
      else if (parse === 'date') (row[column] as string | null) = parseDate(value);
      else (row[column] as string | null) = parseMoney(value);
    });
    if (row.atmId) rows.push({ row, record });
  }
  return { rows };
}
