// Identity: signing in (password, single sign-on), the sessions, and the admins' accounts list.
export { accountRoutes } from './accounts.ts';
export { passwordSignInRoutes } from './password.ts';
export { singleSignOnRoutes } from './single-sign-on.ts';
