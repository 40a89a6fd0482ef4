// The remote registry: what the shells serve, and the deploys, rollbacks and tokens that change it.
export { registryRoutes } from './releases.ts';
