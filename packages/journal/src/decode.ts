// Bytes to lines. Lines are cut on the bytes (CR, LF and CRLF are the same bytes in UTF-8 and in
// Windows-1252, and no UTF-8 multi-byte character contains a byte below 0x80), then each line is
// decoded: so a character or a CRLF split between two chunks is never split in the text.
// Charset: a BOM says it; else UTF-8 while every line is valid UTF-8; from the first line that is
// not, Windows-1252 (iconv-lite: Node 20's TextDecoder('windows-1252') decodes 0x80-0x9F wrong).
import { Buffer, isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';

/** The longest line kept, in bytes: a longer line is cut there (its line number still counts). */
export const maxLineBytes = 4096;

export interface Line {
  /** 1-based, as in the file. */
  no: number;
  text: string;
}

const CR = 0x0d;
const LF = 0x0a;

type Charset = 'utf-8' | 'windows-1252';

/** Decodes whole lines (their bytes without the line end) in the charset the file shows. */
class LineDecoder {
  charset: Charset = 'utf-8';
  bom = false;

  decode(bytes: Buffer, cut: boolean): string {
    if (this.charset === 'utf-8') {
      // A line cut at maxLineBytes may end inside a character: judge it without that tail.
      const whole = cut ? bytes.subarray(0, utf8Boundary(bytes)) : bytes;
      if (this.bom || isUtf8(whole)) return whole.toString('utf8');
      this.charset = 'windows-1252';
    }
    return iconv.decode(bytes, 'win1252');
  }
}

/** Whole lines at once (their line ends included): null when they must be decoded one by one. */
function decodeRegion(decoder: LineDecoder, bytes: Buffer): string | null {
  if (decoder.charset === 'windows-1252') return iconv.decode(bytes, 'win1252');
  return decoder.bom || isUtf8(bytes) ? bytes.toString('utf8') : null;
}

/** Where the last complete UTF-8 character of a buffer ends. */
function utf8Boundary(bytes: Buffer): number {
  let i = bytes.length;
  let back = 0;
  while (i > 0 && back < 4 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.length;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  return need > back ? i - 1 : bytes.length;
}

/**
 * Splits a stream of byte chunks into decoded lines. Memory is bounded by the chunk size plus
 * maxLineBytes, whatever the file's line lengths.
 */
export class LineSplitter {
  private readonly decoder = new LineDecoder();
  private started = false;
  /** UTF-16 files are turned into UTF-8 bytes first (iconv keeps a split code unit for the next chunk). */
  private utf16: ReturnType<typeof iconv.getDecoder> | null = null;
  private head = Buffer.alloc(0);
  /** The bytes of the line begun in an earlier chunk (at most maxLineBytes are kept). */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private partialCut = false;
  private afterCR = false;
  private lineNo = 0;

  /** Where lines go instead of the `out` arrays: set once a reader takes every line as it comes. */
  sink: ((no: number, text: string) => void) | null = null;

  private deliver(no: number, text: string, out: Line[]): void {
    if (this.sink) this.sink(no, text);
    else out.push({ no, text });
  }

  get charset(): string {
    return this.utf16 ? 'utf-16' : this.decoder.charset;
  }

  /** The complete lines this chunk ends. */
  push(chunk: Uint8Array, out: Line[] = []): Line[] {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!this.started) {
      // The BOM's bytes may arrive in more than one chunk.
      bytes = this.head.length ? Buffer.concat([this.head, bytes]) : bytes;
      if (bytes.length < 3 && isBomPrefix(bytes)) {
        this.head = Buffer.from(bytes);
        return out;
      }
      this.started = true;
      this.head = Buffer.alloc(0);
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        this.decoder.bom = true;
        bytes = bytes.subarray(3);
      } else if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
        this.utf16 = iconv.getDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be');
        this.decoder.bom = true;
        bytes = bytes.subarray(2);
      }
    }
    if (this.utf16) bytes = Buffer.from(this.utf16.write(bytes), 'utf8');
    this.split(bytes, out);
    return out;
  }

  /** The last line, when the file does not end with a line end. */
  end(out: Line[] = []): Line[] {
    if (!this.started && this.head.length) {
      this.started = true;
      this.split(this.head, out);
    }
    if (this.utf16) this.split(Buffer.from(this.utf16.end() ?? '', 'utf8'), out);
    if (this.partialBytes > 0 || this.partialCut) this.emit(Buffer.alloc(0), out);
    return out;
  }

  private split(bytes: Buffer, out: Line[]): void {
    let start = 0;
    if (this.afterCR && bytes.length > 0) {
      this.afterCR = false;
      if (bytes[0] === LF) start = 1;
    }
    // A line begun in an earlier chunk is completed on its own.
    if (this.partialBytes > 0 || this.partialCut) {
      const end = nextEnd(bytes, start);
      if (end < 0) {
        this.keep(bytes.subarray(start));
        return;
      }
      this.emit(bytes.subarray(start, end), out);
      start = this.after(bytes, end);
      if (start < 0) return;
    }
    // The complete lines of the chunk are decoded together when their charset allows (the usual case).
    const last = Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR));
    if (last >= start) {
      const text = decodeRegion(this.decoder, bytes.subarray(start, last + 1));
      if (text === null) this.splitEach(bytes, start, last + 1, out);
      else this.splitText(text, out);
      if (bytes[last] === CR && last === bytes.length - 1) this.afterCR = true;
      start = last + 1;
    }
    if (start < bytes.length) this.keep(bytes.subarray(start));
  }

  /** Where the next line starts after the line end at `end`; -1 when a CR ends the chunk. */
  private after(bytes: Buffer, end: number): number {
    if (bytes[end] !== CR) return end + 1;
    if (end + 1 >= bytes.length) {
      this.afterCR = true;
      return -1;
    }
    return bytes[end + 1] === LF ? end + 2 : end + 1;
  }

  /** Decoded lines, each ended by CR, LF or CRLF (the text ends with one). */
  private splitText(text: string, out: Line[]): void {
    let i = 0;
    let nextLF = text.indexOf('\n');
    let nextCR = text.indexOf('\r');
    while (i < text.length) {
      if (nextLF >= 0 && nextLF < i) nextLF = text.indexOf('\n', i);
      if (nextCR >= 0 && nextCR < i) nextCR = text.indexOf('\r', i);
      const end = nextLF < 0 ? nextCR : nextCR < 0 ? nextLF : Math.min(nextLF, nextCR);
      if (end < 0) break;
      let line = text.slice(i, end);
      // Cut as the byte-wise path cuts, so that the chunks never change a line.
      if (line.length > maxLineBytes / 4 && Buffer.byteLength(line) > maxLineBytes) {
        line = this.decoder.charset === 'utf-8' ? this.decoder.decode(Buffer.from(line).subarray(0, maxLineBytes), true) : line.slice(0, maxLineBytes);
      }
      this.deliver(++this.lineNo, line, out);
      i = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
    }
  }

  /** Lines decoded one by one, from `start` to `stop` (a line end's last byte + 1). */
  private splitEach(bytes: Buffer, start: number, stop: number, out: Line[]): void {
    while (start < stop) {
      const end = nextEnd(bytes, start);
      this.emit(bytes.subarray(start, end), out);
      start = bytes[end] === CR && bytes[end + 1] === LF && end + 1 < stop ? end + 2 : end + 1;
    }
  }

  private keep(bytes: Buffer): void {
    const room = maxLineBytes - this.partialBytes;
    if (bytes.length > room) this.partialCut = true;
    if (room <= 0) return;
    // A copy: the caller may reuse its chunk.
    const kept = Buffer.from(bytes.subarray(0, room));
    this.partial.push(kept);
    this.partialBytes += kept.length;
  }

  private emit(tail: Buffer, out: Line[]): void {
    let bytes = tail;
    let cut = false;
    if (this.partial.length) {
      this.keep(tail);
      bytes = this.partial.length === 1 ? this.partial[0]! : Buffer.concat(this.partial);
      cut = this.partialCut;
      this.partial = [];
      this.partialBytes = 0;
      this.partialCut = false;
    } else if (bytes.length > maxLineBytes) {
      bytes = bytes.subarray(0, maxLineBytes);
      cut = true;
    }
    this.deliver(++this.lineNo, this.decoder.decode(bytes, cut), out);
  }
}

/** The first CR or LF at or after `from`; -1 when none. */
function nextEnd(bytes: Buffer, from: number): number {
  const lf = bytes.indexOf(LF, from);
  const cr = bytes.indexOf(CR, from);
  return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
}

function isBomPrefix(bytes: Buffer): boolean {
  if (bytes.length === 0) return true;
  if (bytes[0] === 0xef) return bytes.length < 2 || (bytes[1] === 0xbb && (bytes.length < 3 || bytes[2] === 0xbf));
  return bytes.length === 1 && (bytes[0] === 0xff || bytes[0] === 0xfe);
}

/** The chunks of a source: a whole file in slices, so that one parse never holds all its lines at once. */
export async function* chunksOf(source: Uint8Array | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    const slice = 1 << 20;
    for (let at = 0; at < source.length; at += slice) yield source.subarray(at, at + slice);
  } else yield* source;
}

/** A whole journal as text, decoded as parseJournal reads it, line ends made LF (for the line viewer). */
export function decodeJournal(bytes: Uint8Array): string {
  const splitter = new LineSplitter();
  const lines = splitter.push(bytes);
  splitter.end(lines);
  return lines.map((line) => line.text).join('\n');
}
