// What server code may import: the pure cell, CSV and column helpers, with no browser download code
// and no xlsx (the server streams XLSX with exceljs).
export * from './cells.ts';
export { csvLine } from './csv.ts';
export * from './ej-columns.ts';
export * from './names.ts';
