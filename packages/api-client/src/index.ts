export * from './session.ts';
export * from './http.ts';
export * from './types.ts';
export * from './endpoints/admin.ts';
export * from './endpoints/emails.ts';
export * from './endpoints/ej.ts';
export * from './endpoints/files.ts';
export * from './endpoints/preferences.ts';
export { signIn, LoginError } from './sign-in.ts';
