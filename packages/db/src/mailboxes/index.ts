// Mailboxes: the mailboxes an admin added (secrets sealed), and their Test connection.
export * from './schema.ts';
export * from './mailboxes.ts';
