// Where `pnpm start` and `pnpm remote` find things: the data folder, each remote's port and public
// origin, its published releases, the API, the deployers' token and the supervised processes' files.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultPorts, remoteNames, type RemoteName } from '../rsbuild.shared.ts';

export const root = resolve(import.meta.dirname, '..');
export const dataDir = () => resolve(process.env.EJDESK_DATA_DIR || join(root, '.data'));
export const host = () => process.env.HOST ?? '127.0.0.1';
const publicHost = () => process.env.PUBLIC_HOST ?? 'localhost';

export const isRemoteName = (name: string | undefined): name is RemoteName => remoteNames.includes(name as RemoteName);
export const remotePort = (name: RemoteName) => Number(process.env[`${name.toUpperCase()}_REMOTE_PORT`] ?? defaultPorts[name]);
/** Where browsers load the remote from: its own static server, or a CDN named in <NAME>_REMOTE_URL. */
export const remoteOrigin = (name: RemoteName) => (process.env[`${name.toUpperCase()}_REMOTE_URL`] ?? `http://${publicHost()}:${remotePort(name)}`).replace(/\/$/, '');
export const shellPort = () => Number(process.env.SHELL_PORT ?? defaultPorts.shell);
export const shellOrigin = () => `http://${publicHost()}:${shellPort()}`;
export const apiPort = () => Number(process.env.API_PORT ?? 8000);
export const apiUrl = () => (process.env.API_URL ?? `http://127.0.0.1:${apiPort()}`).replace(/\/$/, '');

/** Every published release of a remote, one folder per version, served by its static server. */
export const releasesDir = (name: RemoteName) => join(dataDir(), 'remotes', name);
/** Pid files of the supervised processes, and the marks of the ones stopped on purpose. */
export const runDir = () => join(dataDir(), 'run');
export const pidFile = (name: string) => join(runDir(), `${name}.pid`);
export const stoppedMark = (name: string) => join(runDir(), `${name}.stopped`);

/** The deployers' token: REMOTE_DEPLOY_TOKEN, or the one `pnpm start` wrote for this data folder. */
export const deployTokenFile = () => join(dataDir(), 'deploy-token');
export function deployToken(): string | undefined {
  if (process.env.REMOTE_DEPLOY_TOKEN) return process.env.REMOTE_DEPLOY_TOKEN;
  return existsSync(deployTokenFile()) ? readFileSync(deployTokenFile(), 'utf8').trim() : undefined;
}
