// The API contract both sides are built against. A remote's build records the version it was built
// with (ejdesk-remote.json); `pnpm remote deploy` refuses a build whose version the API does not
// serve. Raise it when an endpoint changes in a way an older remote would misread.
export const apiContractVersion = 1;
export * from './endpoints.ts';
export * from './journals.ts';
export type * from './wire.ts';
export * from './remotes.ts';
