// Delimited text as senders mail it: CSV, tab- or pipe-separated, semicolons, or columns lined up
// with spaces (what PDF text looks like). Bytes that are not UTF-8 are read as Windows-1252.

const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');

export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = windows1252.decode(bytes);
  }
  return text.replace(/^\uFEFF/, '');
}

/** True when the bytes look like text rather than a binary format (no NULs in the first 4 KB). */
export const looksLikeText = (bytes: Uint8Array): boolean => !bytes.subarray(0, 4096).includes(0);

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

const delimiters = ['\t', '|', ',', ';'] as const;

/** The delimiter a line uses most, or null for columns separated by runs of spaces. */
function delimiterOf(line: string): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const d of delimiters) {
    const count = line.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/**
 * A grid of cells from text. Each line is split by the delimiter the table's header line uses:
 * a file may open with a few lines of prose before its header, so the delimiter is chosen per line
 * and the most common one wins.
 */
export function textGrid(text: string, maxLines: number): string[][] {
  const lines = text.split(/\r\n|\r|\n/, maxLines).filter((l) => l.trim() !== '');
  const votes = new Map<string | null, number>();
  for (const line of lines.slice(0, 50)) {
    const d = delimiterOf(line);
    votes.set(d, (votes.get(d) ?? 0) + 1);
  }
  const delimiter = [...votes.entries()].filter(([d]) => d !== null).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return lines.map((line) => {
    const cells = delimiter && line.includes(delimiter) ? splitQuoted(line, delimiter) : line.trim().split(/\s{2,}/);
    // Pipe tables often start and end with a pipe: drop the empty edge cells.
    if (delimiter === '|' && cells[0] === '') cells.shift();
    if (delimiter === '|' && cells.at(-1) === '') cells.pop();
    return cells;
  });
}
