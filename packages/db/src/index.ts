export * from './client.ts';
export * from './schema.ts';
export * from './bank-pass-cipher.ts';
export * from './queries/users.ts';
export * from './queries/admin.ts';
export * from './queries/filters.ts';
export * from './queries/emails.ts';
export * from './queries/ej-records.ts';
