import { describe, expect, it } from 'vitest';
import { LineSplitter, decodeJournal, maxLineBytes, type Line } from '../src/decode.ts';

const enc = (s: string) => new TextEncoder().encode(s);

/** Feeds the bytes in chunks of `size` and returns every line. */
function linesOf(bytes: Uint8Array, size = bytes.length || 1): Line[] {
  const splitter = new LineSplitter();
  const out: Line[] = [];
  for (let at = 0; at < bytes.length; at += size) splitter.push(bytes.subarray(at, at + size), out);
  return splitter.end(out);
}

describe('decodeJournal', () => {
  it('reads CRLF, LF and CR line ends alike, numbering lines as in the file', () => {
    expect(decodeJournal(enc('a\r\nb\nc\rd'))).toBe('a\nb\nc\nd');
    expect(linesOf(enc('a\r\n\r\nb\r\n')).map((l) => [l.no, l.text])).toEqual([
      [1, 'a'],
      [2, ''],
      [3, 'b'],
    ]);
  });

  it('reads Windows-1252 when the bytes are not UTF-8', () => {
    // 0x80 is the euro sign, 0xE9 é in Windows-1252; neither is valid UTF-8 here.
    expect(decodeJournal(Uint8Array.from([0x80, 0x31, 0x30, 0x0d, 0x0a, 0x63, 0x61, 0x66, 0xe9]))).toBe('€10\ncafé');
  });

  it('reads UTF-8, with or without a BOM, and UTF-16 with its BOM', () => {
    expect(decodeJournal(enc('café ₹'))).toBe('café ₹');
    expect(decodeJournal(Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('x\ny')]))).toBe('x\ny');
    expect(decodeJournal(Uint8Array.from([0xff, 0xfe, ...Buffer.from('a\r\nb', 'utf16le')]))).toBe('a\nb');
  });

  it('gives the same lines whatever the chunks, down to one byte', () => {
    const text = '\uFEFF[020t*476*04/02/2025*06:26:55*\r\n₹ café\r\n\rNOTES PRESENTED 0,4,0,0\n\nend\r';
    const whole = linesOf(enc(text));
    for (const size of [1, 2, 3, 5, 7]) expect(linesOf(enc(text), size)).toEqual(whole);
    const cp1252 = Uint8Array.from([0x61, 0x0d, 0x0a, 0xe9, 0x0d, 0x0a, 0x80]);
    for (const size of [1, 2, 3]) expect(linesOf(cp1252, size)).toEqual(linesOf(cp1252));
    expect(whole.map((l) => l.text)).toEqual(['[020t*476*04/02/2025*06:26:55*', '₹ café', '', 'NOTES PRESENTED 0,4,0,0', '', 'end']);
  });

  it('keeps at most maxLineBytes of a line but counts the lines after it', () => {
    const long = 'x'.repeat(maxLineBytes * 3);
    for (const size of [1000, 1 << 16]) {
      const lines = linesOf(enc(`${long}\nnext`), size);
      expect(lines.map((l) => [l.no, l.text.length])).toEqual([
        [1, maxLineBytes],
        [2, 4],
      ]);
    }
  });

  it('does not take a UTF-8 character cut at the line cap for Windows-1252', () => {
    const lines = linesOf(enc(`${'a'.repeat(maxLineBytes - 1)}₹₹\nnext ₹`));
    expect(lines[1]?.text).toBe('next ₹');
  });
});
