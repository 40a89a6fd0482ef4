export * from './cells.ts';
export * from './csv.ts';
export * from './xlsx.ts';
export * from './download.ts';
export * from './names.ts';
export * from './ej-columns.ts';
