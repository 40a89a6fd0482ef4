// What the edge's processes read from their environment (`pnpm start`, `pnpm dev`, `pnpm remote`,
// the shell's server and each remote's static server), in one schema read once at start, and where
// they find things: the data folder, each remote's port and public origin, its published releases,
// the API, the deployers' token and the supervised processes' files.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultPorts, remoteNames, type RemoteName } from '@ejdesk/contract';
import { integer, readSettings, startingWith, text } from '@ejdesk/settings';

/** The repository: the apps' builds and sources are found from here. */
export const root = resolve(import.meta.dirname, '../../..');

const url = (description: string) => text({ pattern: '^https?://[^\\s]+$', accepts: 'an http(s):// URL', description });
const port = (fallback: number, description: string) => integer({ minimum: 1, maximum: 65535, default: fallback, description });

const remoteSettings = Object.fromEntries(
  remoteNames.flatMap((name) => [
    [`${name.toUpperCase()}_REMOTE_PORT`, port(defaultPorts[name], `Port of the ${name} remote's static server.`)],
    [`${name.toUpperCase()}_REMOTE_URL`, url(`Where browsers load the ${name} remote from (a CDN); unset, its own static server.`)],
  ]),
) as Record<`${Uppercase<RemoteName>}_REMOTE_PORT`, ReturnType<typeof port>> & Record<`${Uppercase<RemoteName>}_REMOTE_URL`, ReturnType<typeof url>>;

export const edgeSettings = {
  EJDESK_DATA_DIR: text({ description: 'Folder of the embedded database, the published remotes and the run files. Unset: `.data` at the repository root.' }),
  HOST: text({ default: '127.0.0.1', description: "Address the shell's server and the remotes' static servers listen on." }),
  PUBLIC_HOST: text({ default: 'localhost', description: 'Host name browsers reach the console by (the remotes’ origins use it).' }),
  SHELL_PORT: port(defaultPorts.shell, "Port of the shell's server: the console's address."),
  API_PORT: port(8000, 'Port the API listens on (started by `pnpm start`).'),
  API_URL: url('The API the shell forwards /api to; unset, the one `pnpm start` runs on API_PORT.'),
  SHELL_DIST: text({ description: 'The shell’s build that `pnpm edge` serves. Unset: apps/shell/dist (made by `pnpm build`).' }),
  EJDESK_PROXY_SECRET: text({
    secret: true,
    description: 'Sent to the API in X-EJDesk-Proxy by `pnpm edge` (the API’s own setting of that name must match); `pnpm start` makes one.',
  }),
  PUBLIC_URL: url('The console’s address as browsers reach it, handed to the API by `pnpm start` (single sign-on); unset, http://PUBLIC_HOST:SHELL_PORT.'),
  REMOTE_DEPLOY_TOKEN: text({
    secret: true,
    description: 'Bearer token of `pnpm remote deploy` and `rollback`; unset, the one `pnpm start` wrote into the data folder.',
  }),
  DATABASE_URL: text({
    pattern: '^postgres(ql)?://',
    accepts: 'a postgres:// URL',
    description: 'Set: `pnpm start` seeds no demo and leaves migrating to the API.',
  }),
  IMAP_HOST: text({ description: 'Set: `pnpm start` says which mailbox the API’s hosted ingester watches.' }),
  REMOTE_VERSION: text({
    pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$',
    accepts: 'a version (letters, digits, . + _ -)',
    description: 'The version a remote’s build records; unset, its package.json’s.',
  }),
  ...remoteSettings,
};

/** The edge's settings, read once as the process starts: a bad one ends it, named. */
export const edge = startingWith('EJ Desk', () => readSettings(edgeSettings));

export const dataDir = () => resolve(edge.EJDESK_DATA_DIR ?? join(root, '.data'));
export const host = () => edge.HOST;

export const remotePort = (name: RemoteName) => edge[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_PORT`];
/** Where browsers load the remote from: its own static server, or a CDN named in <NAME>_REMOTE_URL. */
export const remoteOrigin = (name: RemoteName) =>
  (edge[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_URL`] ?? `http://${edge.PUBLIC_HOST}:${remotePort(name)}`).replace(/\/$/, '');
export const shellPort = () => edge.SHELL_PORT;
export const shellDist = () => resolve(edge.SHELL_DIST ?? join(root, 'apps/shell/dist'));
export const shellOrigin = () => `http://${edge.PUBLIC_HOST}:${shellPort()}`;
export const apiPort = () => edge.API_PORT;
export const apiUrl = () => (edge.API_URL ?? `http://127.0.0.1:${apiPort()}`).replace(/\/$/, '');

/** Every published release of a remote, one folder per version, served by its static server. */
export const releasesDir = (name: RemoteName) => join(dataDir(), 'remotes', name);
/** Pid files of the supervised processes, and the marks of the ones stopped on purpose. */
const runDir = () => join(dataDir(), 'run');
export const pidFile = (name: string) => join(runDir(), `${name}.pid`);
export const stoppedMark = (name: string) => join(runDir(), `${name}.stopped`);

/** The deployers' token: REMOTE_DEPLOY_TOKEN, or the one `pnpm start` wrote for this data folder. */
export const deployTokenFile = () => join(dataDir(), 'deploy-token');
export function deployToken(): string | undefined {
  if (edge.REMOTE_DEPLOY_TOKEN) return edge.REMOTE_DEPLOY_TOKEN;
  return existsSync(deployTokenFile()) ? readFileSync(deployTokenFile(), 'utf8').trim() : undefined;
}
