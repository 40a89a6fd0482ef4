// A one-sheet .xlsx workbook streamed on the server. The sheet's XML is made a batch of rows at a
// time, only when the zip writer (yazl) asks for more, and yazl deflates into the output only as
// fast as the client reads: memory stays flat whatever the number of rows, and nothing more is
// read once the client leaves. (exceljs's streaming writer buffers the sheet without regard to the
// reader, and kept 600 MB for 800,000 rows.) Cells are typed: numbers are numbers, date columns
// are date cells shown DD/MM/YY, text is inline (no shared-strings table to hold).
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { amountOf, calendarDayUtc, cellValue, exportCell, neutralise, type ExportColumn } from './cells.ts';

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

// Characters XML 1.0 cannot hold (a spreadsheet app would refuse the whole file).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const notXml = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const escapeXml = (text: string) =>
  text.replace(notXml, '').replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** A1-style column letters for a 0-based index. */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

const excelEpoch = Date.UTC(1899, 11, 30);

/** Excel's serial day number of a YYYY-MM-DD or DD/MM/YY date, or null for anything else. */
export function excelSerialDay(value: unknown): number | null {
  const day = calendarDayUtc(value);
  return day === null ? null : (day - excelEpoch) / 86_400_000;
}

/** Sheet names: at most 31 characters, none of []:*?/\ (Excel refuses the file otherwise). */
const sheetNameOf = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';

const DATE_STYLE = 1; // cellXfs index of the DD/MM/YY format below

function staticParts(sheetName: string): Record<string, string> {
  return {
    '[Content_Types].xml':
      `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
    '_rels/.rels':
      `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${relNs}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml':
      `${xmlHead}<workbook xmlns="${ns}" xmlns:r="${relNs}"><sheets>` +
      `<sheet name="${escapeXml(sheetNameOf(sheetName))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${relNs}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${relNs}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml':
      `${xmlHead}<styleSheet xmlns="${ns}">` +
      '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yy"/></numFmts>' +
      '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>',
  };
}

/**
 * The workbook as a byte stream. `batches` gives the rows a batch at a time; it is only pulled
 * while the reader keeps up, and is closed (return()) when the stream is destroyed.
 */
export function xlsxStream<Row>(batches: AsyncIterable<readonly Row[]>, columns: readonly ExportColumn<Row>[], sheetName: string): Readable {
  // Every cell names its A1 reference: optional in the format, but some readers (exceljs) need it.
  const letters = columns.map((_, i) => columnLetters(i));
  const textCell = (ref: string, text: string) => {
    const escaped = escapeXml(text);
    const preserve = escaped !== escaped.trim() ? ' xml:space="preserve"' : '';
    return '<c r="' + ref + '" t="inlineStr"><is><t' + preserve + '>' + escaped + '</t></is></c>';
  };
  const cellOf = (ref: string, value: unknown, column: ExportColumn<Row>): string => {
    if (column.format === 'date') {
      const serial = excelSerialDay(value);
      if (serial !== null) return '<c r="' + ref + '" s="' + DATE_STYLE + '"><v>' + serial + '</v></c>';
    }
    if (column.format === 'amount') {
      const amount = amountOf(value);
      if (amount !== null) return '<c r="' + ref + '"><v>' + amount + '</v></c>';
    }
    const cell = exportCell(value);
    return typeof cell === 'number' ? '<c r="' + ref + '"><v>' + cell + '</v></c>' : textCell(ref, cell);
  };
  let rowNumber = 1;

  async function* sheetXml() {
    const header = columns.map((c, i) => textCell(letters[i] + '1', neutralise(c.header))).join('');
    yield Buffer.from(`${xmlHead}<worksheet xmlns="${ns}"><sheetData><row r="1">${header}</row>`);
    for await (const batch of batches) {
      // Handed on every 64 rows: short-lived strings die young, which the GC finds cheap.
      let xml = '';
      for (let r = 0; r < batch.length; r++) {
        const row = batch[r]!;
        const n = ++rowNumber;
        xml += '<row r="' + n + '">';
        for (let i = 0; i < columns.length; i++) xml += cellOf(letters[i]! + n, cellValue(row, columns[i]!), columns[i]!);
        xml += '</row>';
        if (r % 64 === 63) {
          yield Buffer.from(xml);
          xml = '';
        }
      }
      if (xml) yield Buffer.from(xml);
    }
    yield Buffer.from('</sheetData></worksheet>');
  }

  const zip = new yazl.ZipFile();
  const mtime = new Date();
  for (const [name, text] of Object.entries(staticParts(sheetName))) zip.addBuffer(Buffer.from(text), name, { mtime });
  const sheet = Readable.from(sheetXml(), { objectMode: false });
  // Level 1: several times faster than the default, and rows of a table compress well anyway.
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', { mtime, compressionLevel: 1 });
  zip.end();
  const output = zip.outputStream as Readable;
  sheet.once('error', (error) => output.destroy(error));
  // The client left (the response destroyed this stream): stop reading rows.
  output.once('close', () => sheet.destroy());
  return output;
}
