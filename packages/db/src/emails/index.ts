// Emails: the mails the ingester wrote, the dashboard's counts and the email lists.
export * from './schema.ts';
export * from './emails.ts';
export * from './produced.ts';
