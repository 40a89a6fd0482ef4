// The EJ Desk data model (docs/data-model.md). One schema for PGlite and PostgreSQL;
// drizzle-kit turns it into the SQL under ../migrations, which run from code on both.
// Each domain's tables are in its own folder (<domain>/schema.ts); this index is what drizzle-kit
// and the client read.
export * from './identity/schema.ts';
export * from './emails/schema.ts';
export * from './ej-records/schema.ts';
export * from './files/schema.ts';
export * from './banks/schema.ts';
export * from './views/schema.ts';
export * from './audit/schema.ts';
export * from './ingest/schema.ts';
export * from './mailboxes/schema.ts';
export * from './registry/schema.ts';
export * from './disputes/schema.ts';
export * from './alerts/schema.ts';
export * from './approvals/schema.ts';
export * from './idempotency/schema.ts';
export * from './journals/schema.ts';
export * from './counts/schema.ts';
