// Electronic journals: each file received once (by its SHA-256), its bytes in compressed pages,
// its transactions with the parser's verdicts, and the evidence each dispute finds in them.
export * from './schema.ts';
