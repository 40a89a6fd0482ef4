// What server code may import: the pure cell, CSV and column helpers and the streamed XLSX writer,
// with no browser download code.
export * from './cells.ts';
export { csvChunks } from './csv.ts';
export * from './ej-columns.ts';
export * from './names.ts';
export { excelSerialDay, xlsxStream } from './xlsx-stream.ts';
