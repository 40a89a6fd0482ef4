// Real servers for the tests: Dovecot, an OAuth2 provider for mailboxes, an OpenID provider for
// people's sign-in, and the CA they trust.
export { startDovecot, type Dovecot, type Oauth2Check } from './dovecot.ts';
export { imapScope, startIdentityProvider, type IdentityProvider } from './identity-provider.ts';
export { signInAtProvider, startSignInProvider, type Person, type SignInProvider } from './sign-in-provider.ts';
