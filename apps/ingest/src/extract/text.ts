// Delimited text as senders mail it: CSV, tab- or pipe-separated, semicolons, or columns lined up
// with spaces (what PDF text looks like), in whatever charset their system writes.
import iconv from 'iconv-lite';
import { namedColumns } from './columns.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Byte-order marks and the charsets they announce. */
const boms: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/**
 * Text from bytes: the charset the mail declared (when iconv-lite knows it), else a byte-order
 * mark's, else UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what Excel and most bank
 * systems write on Windows; a superset of Latin-1's printable range). Decoded with iconv-lite, not
 * TextDecoder, whose windows-1252 is broken on Node 20.20 (nodejs/node#60888). C1 control
 * characters, which no text file means, are dropped.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text: string | undefined;
  const declared = declaredCharset?.trim().toLowerCase();
  const bom = boms.find(([mark]) => mark.every((b, i) => buffer[i] === b));
  if (bom) text = iconv.decode(buffer.subarray(bom[0].length), bom[1]);
  else if (declared && declared !== 'us-ascii' && iconv.encodingExists(declared)) text = iconv.decode(buffer, declared);
  else {
    try {
      text = utf8.decode(buffer);
    } catch {
      text = iconv.decode(buffer, 'windows-1252');
    }
  }

  return text.replace(/^\uFEFF/, '').replace(/[\u0080-\u009f]/g, '');
}

/**
 * True when the bytes look like text rather than a binary format: no NULs in the first 4 KB, or
 * UTF-16 announced by its byte-order mark (a journal written by a Windows program).
 */
export const looksLikeText = (bytes: Uint8Array): boolean =>
  !bytes.subarray(0, 4096).includes(0) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);

/** Split one CSV line with RFC 4180 quoting (quoted fields may not span lines here). */
function splitQuoted(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells.map((c) => c.trim());
}

/** null stands for columns lined up with runs of two or more spaces. */
type Delimiter = '\t' | '|' | ',' | ';' | null;
const delimiters: Delimiter[] = ['\t', '|', ',', ';', null];

function splitLine(line: string, delimiter: Delimiter): string[] {
  const cells = delimiter && line.includes(delimiter) ? splitQuoted(line, delimiter) : line.trim().split(/\s{2,}/);
  // Pipe tables often start and end with a pipe: drop the empty edge cells.
  if (delimiter === '|' && cells[0] === '') cells.shift();
  if (delimiter === '|' && cells.at(-1) === '') cells.pop();
  return cells;
}

/** The delimiter a line uses most (the fallback when no line reads as a dispute header). */
function mostUsed(lines: string[]): Delimiter {
  const votes = new Map<Delimiter, number>();
  for (const line of lines.slice(0, 50)) {
    let best: Delimiter = null;
    let bestCount = 0;
    for (const d of delimiters) {
      const count = d ? line.split(d).length - 1 : 0;
      if (count > bestCount) [best, bestCount] = [d, count];
    }
    votes.set(best, (votes.get(best) ?? 0) + 1);
  }
  return [...votes.entries()].filter(([d]) => d !== null).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * A grid of cells from text. The delimiter is the one that splits a header line (of the first 20)
 * into the most dispute column names: a tab file whose cells are full of commas is still split on
 * tabs. With no such header, the most used delimiter wins.
 */
export function textGrid(text: string, maxLines: number): string[][] {
  const lines = text.split(/\r\n|\r|\n/, maxLines).filter((l) => l.trim() !== '');
  let chosen: Delimiter | undefined;
  let bestNamed = 1;
  for (const line of lines.slice(0, 20)) {
    for (const d of delimiters) {
      const named = namedColumns(splitLine(line, d));
      if (named > bestNamed) [chosen, bestNamed] = [d, named];
    }
  }
  const delimiter = chosen === undefined ? mostUsed(lines) : chosen;
  return lines.map((line) => splitLine(line, delimiter));
}
