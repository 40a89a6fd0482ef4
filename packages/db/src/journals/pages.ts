// A journal's bytes in pages of whole lines, deflated: split exactly where the parser ends a line
// (CR, LF or CRLF; UTF-16's code units for a UTF-16 file), so page N's first line is known without
// reading the pages before it, and the pages joined are the file byte for byte.
import { deflateSync, inflateSync } from 'node:zlib';

/** Lines per page: a page of an ordinary journal is 60-100 KB before deflating. */
const pageLines = 2000;

export type PagedCharset = 'utf-16le' | 'utf-16be' | null;

interface BytePage {
  firstLine: number;
  lineCount: number;
  start: number;
  end: number;
}

const CR = 0x0d;
const LF = 0x0a;

/** The BOM's UTF-16 byte order, if the file begins with one. */
export function charsetOf(bytes: Uint8Array): PagedCharset {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** The byte ranges of the pages of `lines` lines each; the last page holds the rest (and a last line without its end). */
export function splitPages(bytes: Uint8Array, lines = pageLines): BytePage[] {
  const charset = charsetOf(bytes);
  const unit = charset ? 2 : 1;
  const at = (i: number) => (charset === 'utf-16le' ? bytes[i]! | (bytes[i + 1]! << 8) : charset === 'utf-16be' ? (bytes[i]! << 8) | bytes[i + 1]! : bytes[i]!);
  const pages: BytePage[] = [];
  let start = 0;
  let firstLine = 1;
  let count = 0;
  let i = 0;
  const n = bytes.length - (bytes.length % unit);
  while (i < n) {
    const c = at(i);
    if (c === LF || c === CR) {
      i += unit;
      if (c === CR && i < n && at(i) === LF) i += unit;
      count++;
      if (count === lines) {
        pages.push({ firstLine, lineCount: count, start, end: i });
        firstLine += count;
        count = 0;
        start = i;
      }
    } else i += unit;
  }
  if (start < bytes.length) pages.push({ firstLine, lineCount: count + (n > start && !endsLine(bytes, n, unit, at) ? 1 : 0), start, end: bytes.length });
  return pages;
}

function endsLine(bytes: Uint8Array, n: number, unit: number, at: (i: number) => number): boolean {
  if (n < unit) return false;
  const last = at(n - unit);
  return last === LF || last === CR;
}

export const deflatePage = (bytes: Uint8Array): Buffer => deflateSync(bytes);
export const inflatePage = (data: Uint8Array): Buffer => inflateSync(data);

/** A page's bytes ready to decode alone: a UTF-16 file's later pages need its BOM. */
export function decodablePage(bytes: Buffer, firstLine: number, charset: PagedCharset): Buffer {
  if (firstLine === 1 || !charset) return bytes;
  return Buffer.concat([Buffer.from(charset === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]);
}
