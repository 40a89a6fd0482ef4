// Idempotency keys: the stored answers of keyed writes.
export * from './schema.ts';
export * from './keys.ts';
