// What the supervisor (`pnpm start`, `pnpm dev`) reads from its environment, in one schema read
// once at start, and where it finds things: the data folder, the ports and public origins of what
// it runs, and the run files of its processes.
import { join, resolve } from 'node:path';
import { defaultPorts, remoteNames, type RemoteName } from '@ejdesk/contract';
import { integer, readSettings, startingWith, text } from '@ejdesk/settings';

/** The repository: the apps it builds and runs are found from here. */
export const root = resolve(import.meta.dirname, '../../..');

const url = (description: string) => text({ pattern: '^https?://[^\\s]+$', accepts: 'an http(s):// URL', description });
const port = (fallback: number, description: string) => integer({ minimum: 1, maximum: 65535, default: fallback, description });

const remoteSettings = Object.fromEntries(
  remoteNames.flatMap((name) => [
    [`${name.toUpperCase()}_REMOTE_PORT`, port(defaultPorts[name], `Port of the ${name} remote's static server.`)],
    [`${name.toUpperCase()}_REMOTE_URL`, url(`Where browsers load the ${name} remote from (a CDN); unset, its own static server.`)],
  ]),
) as Record<`${Uppercase<RemoteName>}_REMOTE_PORT`, ReturnType<typeof port>> & Record<`${Uppercase<RemoteName>}_REMOTE_URL`, ReturnType<typeof url>>;

export const supervisorSettings = {
  EJDESK_DATA_DIR: text({ description: 'Folder of the embedded database, the published remotes and the run files. Unset: `.data` at the repository root.' }),
  HOST: text({ default: '127.0.0.1', description: "Address the shell's server and the remotes' static servers listen on." }),
  PUBLIC_HOST: text({ default: 'localhost', description: 'Host name browsers reach the console by (the remotes’ origins use it).' }),
  SHELL_PORT: port(defaultPorts.shell, "Port of the shell's server: the console's address."),
  API_PORT: port(8000, 'Port the API listens on (started by `pnpm start`).'),
  API_URL: url('The API the shell forwards /api to; unset, the one `pnpm start` runs on API_PORT.'),
  PUBLIC_URL: url('The console’s address as browsers reach it, handed to the API by `pnpm start` (single sign-on); unset, http://PUBLIC_HOST:SHELL_PORT.'),
  REMOTE_DEPLOY_TOKEN: text({
    secret: true,
    description: 'Bearer token of `pnpm remote deploy` and `rollback`; unset, `pnpm start` makes one and writes it into the data folder.',
  }),
  DATABASE_URL: text({
    pattern: '^postgres(ql)?://',
    accepts: 'a postgres:// URL',
    description: 'Set: `pnpm start` seeds no demo and leaves migrating to the API.',
  }),
  IMAP_HOST: text({ description: 'Set: `pnpm start` says which mailbox the API’s hosted ingester watches.' }),
  ...remoteSettings,
};

/** The supervisor's settings, read once as the process starts: a bad one ends it, named. */
export const supervisor = startingWith('EJ Desk', () => readSettings(supervisorSettings));

export const dataDir = () => resolve(supervisor.EJDESK_DATA_DIR ?? join(root, '.data'));
const host = () => supervisor.HOST;
/** Where this machine reaches a server listening on HOST (a wildcard address is reached on loopback). */
export const localOrigin = (port: number) => `http://${['0.0.0.0', '::', '[::]'].includes(host()) ? '127.0.0.1' : host()}:${port}`;

export const remotePort = (name: RemoteName) => supervisor[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_PORT`];
/** Where browsers load the remote from: its own static server, or a CDN named in <NAME>_REMOTE_URL. */
export const remoteOrigin = (name: RemoteName) =>
  (supervisor[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_URL`] ?? `http://${supervisor.PUBLIC_HOST}:${remotePort(name)}`).replace(/\/$/, '');
export const shellPort = () => supervisor.SHELL_PORT;
export const shellOrigin = () => `http://${supervisor.PUBLIC_HOST}:${shellPort()}`;
export const apiPort = () => supervisor.API_PORT;
export const apiUrl = () => (supervisor.API_URL ?? `http://127.0.0.1:${apiPort()}`).replace(/\/$/, '');

/**
 * Pid files of the supervised processes, and the marks of the ones stopped on purpose (`pnpm remote
 * stop` writes a mark and reads a pid: the release CLI knows these two names too).
 */
const runDir = () => join(dataDir(), 'run');
export const pidFile = (name: string) => join(runDir(), `${name}.pid`);
export const stoppedMark = (name: string) => join(runDir(), `${name}.stopped`);

/** The deployers' token `pnpm start` hands the API, kept for `pnpm remote` in the data folder. */
export const deployTokenFile = () => join(dataDir(), 'deploy-token');
