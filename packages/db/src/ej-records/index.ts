// EJ records: the dispute table (/email), the overage and succeeding lists, and batches for
// streaming exports. Newest first means the most recently extracted record first (id order).
export * from './schema.ts';
// Named: what the other domains and the API use; the rest of these files are this domain's own.
export { type EjFilters, ejRecordColumns, ejConditions, disputesMatching } from './filters.ts';
export { ejOrderFields, disputeOrderFields, type EjOrder, newestFirst } from './orders.ts';
export { type EjRecordRow, listEjRecords } from './lists.ts';
export * from './export.ts';
