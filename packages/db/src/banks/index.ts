// Banks: the admin lists of bank passwords (sealed) and of which MSP serves which bank.
export * from './schema.ts';
export * from './bank-lists.ts';
