// The remote registry: releases (deploy, canary, promote, rollback, withdraw), what is served,
// the allowed origins and the deploy tokens.
export * from './schema.ts';
// Named: what the other domains and the API use; the rest of these files are this domain's own.
export {
  type RemoteRelease,
  type NewRelease,
  remoteHistory,
  type Servable,
  type Switched,
  deployRemote,
  rollbackRemote,
  type Withdrawn,
  withdrawRelease,
  promoteRemote,
  inCanaryShare,
} from './releases.ts';
export * from './slots.ts';
export * from './origins.ts';
export * from './deploy-tokens.ts';
