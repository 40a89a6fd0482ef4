export * from './types.ts';
export { decodeJournal } from './decode.ts';
