// What the release CLI (`pnpm remote`, run by a remote's team, an operator or a deploy pipeline)
// reads from its environment, in one schema read once at start, and where it finds things: the API
// and its registry, the deployers' token, each remote's public origin and published releases, and
// the run files of the processes under `pnpm start`.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultPorts, remoteNames, type RemoteName } from '@ejdesk/contract';
import { integer, readSettings, startingWith, text } from '@ejdesk/settings';

/** The repository: the remotes' local builds are found from here. */
export const root = resolve(import.meta.dirname, '../../..');

const url = (description: string) => text({ pattern: '^https?://[^\\s]+$', accepts: 'an http(s):// URL', description });
const port = (fallback: number, description: string) => integer({ minimum: 1, maximum: 65535, default: fallback, description });

const remoteSettings = Object.fromEntries(
  remoteNames.flatMap((name) => [
    [
      `${name.toUpperCase()}_REMOTE_PORT`,
      port(defaultPorts[name], `Port of the ${name} remote's static server (its origin when ${name.toUpperCase()}_REMOTE_URL is unset).`),
    ],
    [`${name.toUpperCase()}_REMOTE_URL`, url(`Where browsers load the ${name} remote from (a CDN); unset, its own static server.`)],
  ]),
) as Record<`${Uppercase<RemoteName>}_REMOTE_PORT`, ReturnType<typeof port>> & Record<`${Uppercase<RemoteName>}_REMOTE_URL`, ReturnType<typeof url>>;

export const releaseSettings = {
  EJDESK_DATA_DIR: text({ description: 'Folder of the published remotes and the run files of `pnpm start`. Unset: `.data` at the repository root.' }),
  PUBLIC_HOST: text({ default: 'localhost', description: 'Host name browsers reach the console by (the remotes’ origins use it).' }),
  SHELL_PORT: port(defaultPorts.shell, "Port of the shell's server, whose manifest a deploy is checked against."),
  API_PORT: port(8000, 'Port of the API on this host, when API_URL is unset.'),
  API_URL: url('The API whose registry `pnpm remote` reads and switches; unset, the one on API_PORT of this host.'),
  REMOTE_DEPLOY_TOKEN: text({
    secret: true,
    description: 'Bearer token of `pnpm remote deploy` and `rollback`; unset, the one `pnpm start` wrote into the data folder.',
  }),
  ...remoteSettings,
};

/** The release CLI's settings, read once as the process starts: a bad one ends it, named. */
const release = startingWith('EJ Desk', () => readSettings(releaseSettings));

const dataDir = () => resolve(release.EJDESK_DATA_DIR ?? join(root, '.data'));

const remotePort = (name: RemoteName) => release[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_PORT`];
/** Where browsers load the remote from: its own static server, or a CDN named in <NAME>_REMOTE_URL. */
export const remoteOrigin = (name: RemoteName) =>
  (release[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_URL`] ?? `http://${release.PUBLIC_HOST}:${remotePort(name)}`).replace(/\/$/, '');
export const shellOrigin = () => `http://${release.PUBLIC_HOST}:${release.SHELL_PORT}`;
export const apiUrl = () => (release.API_URL ?? `http://127.0.0.1:${release.API_PORT}`).replace(/\/$/, '');

/** Every published release of a remote, one folder per version, served by its static server. */
export const releasesDir = (name: RemoteName) => join(dataDir(), 'remotes', name);
/** The supervisor's run files (apps/supervisor's config names them alike): a process's pid, and the mark of one stopped on purpose. */
const runDir = () => join(dataDir(), 'run');
export const pidFile = (name: string) => join(runDir(), `${name}.pid`);
export const stoppedMark = (name: string) => join(runDir(), `${name}.stopped`);

/** The deployers' token: REMOTE_DEPLOY_TOKEN, or the one `pnpm start` wrote for this data folder. */
const deployTokenFile = () => join(dataDir(), 'deploy-token');
export function deployToken(): string | undefined {
  if (release.REMOTE_DEPLOY_TOKEN) return release.REMOTE_DEPLOY_TOKEN;
  return existsSync(deployTokenFile()) ? readFileSync(deployTokenFile(), 'utf8').trim() : undefined;
}
