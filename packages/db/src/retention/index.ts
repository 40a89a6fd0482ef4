// The retention domain: months of EJ records past their retention archived to a file and dropped,
// the night's run that does it, and a restore from the file (docs/operations.md).
export * from './archive.ts';
export * from './nightly.ts';
