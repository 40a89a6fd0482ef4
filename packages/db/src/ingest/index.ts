// Ingest: the ingester's queue and checkpoints, the leases on mailboxes, the sender mappings and
// ignore rules it sorts mail by, what processing a message writes, and Mail Flow.
export * from './schema.ts';
export * from './queue.ts';
export * from './leases.ts';
export * from './mail-rules.ts';
export * from './processing.ts';
export * from './mail-flow.ts';
