// Audit: the audit log, and the audited admin lists.
export * from './schema.ts';
export * from './audit-log.ts';
export * from './audited-list.ts';
export * from './chain.ts';
