// Real servers for the tests that read mail: Dovecot, an OAuth2 provider, and the CA they trust.
export { startDovecot, type Dovecot, type Oauth2Check } from './dovecot.ts';
export { imapScope, startIdentityProvider, type IdentityProvider } from './identity-provider.ts';
