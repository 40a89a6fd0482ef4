// Electronic journals: each file received once (by its SHA-256), its bytes in compressed pages,
// its transactions with the parser's verdicts, and the evidence each dispute finds in them
// (matched as a journal arrives, and as a complaint arrives after its journal).
export * from './schema.ts';
export { type ReceiveInput, type ReceiveResult, type ReceivedJournal, receiveJournal } from './receive.ts';
export { type MatchTarget, type MatchedDispute, matchDisputes } from './match.ts';
export { type JournalLine, journalBytes, journalLines, maxLinesRead } from './lines.ts';
export { type JournalDetail, type JournalFilters, type JournalRow, type JournalTransactionRow, journalDetail, listJournals } from './lists.ts';
export {
  type DisputeEvidence,
  type ExcerptLine,
  type NeighbourTransaction,
  type RecordVerdict,
  disputeEvidence,
  disputesWithEvidence,
  verdictsOfRecords,
} from './evidence.ts';
export { type Suggestion, type SuggestionResult, applySuggestion, suggestionOf } from './suggestions.ts';
