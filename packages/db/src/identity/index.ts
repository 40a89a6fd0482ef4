// Identity: users and their roles, accounts (the admin's Users screen), sign-in throttling,
// single sign-on and sessions.
export * from './schema.ts';
export * from './accounts.ts';
export * from './sso.ts';
export * from './users.ts';
