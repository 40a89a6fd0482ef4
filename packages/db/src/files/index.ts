// Data files: the files attached to mail, by kind, and their extracted rows.
export * from './schema.ts';
export * from './data-files.ts';
