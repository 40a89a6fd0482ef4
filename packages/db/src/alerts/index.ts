// Alerts: the rules (an admin list) and the outbox of warnings and digests the worker sends.
export * from './schema.ts';
export * from './rules.ts';
export * from './deliveries.ts';
