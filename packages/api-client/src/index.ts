export * from './session.ts';
export * from './http.ts';
export * from './types.ts';
export * from './endpoints/auth.ts';
export * from './endpoints/admin.ts';
export * from './endpoints/emails.ts';
export * from './endpoints/ej.ts';
export * from './endpoints/files.ts';
