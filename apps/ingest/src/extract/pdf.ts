// PDF tables through unpdf (pdf.js). Report tools (ReportLab, Excel's "Save as PDF", wkhtmltopdf,
// core banking systems) lay a table out as text items at positions, with no delimiter between
// cells, so the table is rebuilt from the positions: items are grouped into lines by their y, into
// cells by the gaps between them, and a line that names the dispute columns is the header whose
// cells give the column bands (by x) for the lines below it, across pages (a header repeated on a
// later page is recognised again, not read as a row). A PDF with no such header is read as lines
// of delimited text (" | " tables). A protected PDF is opened with the stored password of the
// sender's bank.
import type { StructuredTextItem } from 'unpdf';
import { limits } from '../limits.ts';
import { columnOf, judgeHeader, type Column } from './columns.ts';
import { textGrid } from './text.ts';
import { ExtractionError } from './zip.ts';
import type * as Unpdf from 'unpdf';

interface Cell {
  text: string;
  x0: number;
  x1: number;
}

/** The page's text as lines (top to bottom) of cells (left to right). */
export function linesOf(items: readonly StructuredTextItem[]): Cell[][] {
  const lines: { y: number; items: StructuredTextItem[] }[] = [];
  for (const item of [...items].filter((i) => i.str.trim() !== '').sort((a, b) => b.y - a.y || a.x - b.x)) {
    const tolerance = Math.max(1.5, (item.fontSize || item.height || 8) * 0.4);
    const line = lines.at(-1);
    if (line && Math.abs(line.y - item.y) <= tolerance) line.items.push(item);
    else lines.push({ y: item.y, items: [item] });
  }
  return lines.map(({ items: lineItems }) => {
    const cells: Cell[] = [];
    for (const item of lineItems.sort((a, b) => a.x - b.x)) {
      const last = cells.at(-1);
      // Words of one cell are a space apart; cells are further apart than about half a character height.
      const gap = Math.max(2, (item.fontSize || item.height || 8) * 0.6);
      if (last && item.x - last.x1 < gap) {
        last.text += (item.x - last.x1 > 0.5 && !last.text.endsWith(' ') ? ' ' : '') + item.str;
        last.x1 = Math.max(last.x1, item.x + item.width);
      } else cells.push({ text: item.str, x0: item.x, x1: item.x + item.width });
    }
    for (const cell of cells) cell.text = cell.text.replace(/\s+/g, ' ').trim();
    return cells;
  });
}

const isHeader = (cells: readonly Cell[]) => judgeHeader(new Set(cells.map((c) => columnOf(c.text)).filter((c): c is Column => !!c))) === null;

/** A line's cells placed in the header's columns: each by its centre, in the band that starts at a header cell. */
function placeInColumns(cells: readonly Cell[], header: readonly Cell[]): string[] {
  const row = header.map(() => '');
  for (const cell of cells) {
    const centre = (cell.x0 + cell.x1) / 2;
    let column = 0;
    for (let i = 1; i < header.length; i++) if (centre >= header[i]!.x0 - 2) column = i;
    row[column] = row[column] ? `${row[column]} ${cell.text}` : cell.text;
  }
  return row;
}

/**
 * The PDF's tables as grids: one grid for a positioned table across all its pages (header first),
 * else the text lines as delimited text.
 */
export function gridsOfPages(pages: readonly (readonly StructuredTextItem[])[]): string[][][] {
  const grid: string[][] = [];
  let header: Cell[] | undefined;
  const lines: string[] = [];
  for (const page of pages) {
    for (const cells of linesOf(page)) {
      // Kept as text too: a PDF whose cells carry their own delimiters (" | ") is read that way.
      lines.push(cells.map((c) => c.text).join('  '));
      if (isHeader(cells)) {
        if (!header) grid.push(cells.map((c) => c.text));
        header = cells; // a later page's header may sit a little differently
        continue;
      }
      if (header) grid.push(placeInColumns(cells, header));
    }
  }
  return header ? [grid] : [textGrid(lines.join('\n'), limits.textLines)];
}

/**
 * pdf.js, loaded with the first PDF (tens of MB of an ingester's memory that most mail never
 * needs), then kept: unpdf's getDocumentProxy resolves a module path on every call, which under a
 * module loader costs a round trip to the loader thread per PDF.
 */
let pdfjs:
  Promise<{ extractTextItems: typeof Unpdf.extractTextItems; getDocument: Awaited<ReturnType<typeof Unpdf.getResolvedPDFJS>>['getDocument'] }> | undefined;
const loadPdfjs = () =>
  (pdfjs ??= import('unpdf').then(async (unpdf) => ({ extractTextItems: unpdf.extractTextItems, getDocument: (await unpdf.getResolvedPDFJS()).getDocument })));

export async function pdfGrids(bytes: Uint8Array, passwords: readonly string[]): Promise<string[][][]> {
  const { extractTextItems, getDocument } = await loadPdfjs();
  let lastError: unknown;
  for (const password of [undefined, ...passwords]) {
    try {
      // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy each time.
      const doc = await getDocument({ data: new Uint8Array(bytes), password, isEvalSupported: false, useSystemFonts: true, stopAtErrors: false, verbosity: 0 })
        .promise;
      try {
        if (doc.numPages > limits.pdfPages) throw new ExtractionError(`the PDF has ${doc.numPages} pages (limit ${limits.pdfPages})`);
        const { items } = await extractTextItems(doc);
        return gridsOfPages(items);
      } finally {
        await doc.destroy();
      }
    } catch (err) {
      if (err instanceof ExtractionError) throw err;
      lastError = err;
      if ((err as Error)?.name !== 'PasswordException') break;
    }
  }
  if ((lastError as Error)?.name === 'PasswordException') {
    throw new ExtractionError(
      passwords.length === 0
        ? "the PDF is password-protected and no password is stored for the sender's bank"
        : 'the PDF is password-protected and the stored password does not open it',
    );
  }
  throw new ExtractionError(`not a readable PDF (${(lastError as Error)?.message ?? 'unknown error'})`);
}
