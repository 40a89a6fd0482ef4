// What the edge's servers read from their environment (`pnpm edge`, the shell's server, and each
// remote's static server), in one schema read once at start, and where they find things: the
// shell's build, the API, each remote's port and its published releases in the data folder.
import { join, resolve } from 'node:path';
import { defaultPorts, remoteNames, type RemoteName } from '@ejdesk/contract';
import { integer, readSettings, startingWith, text } from '@ejdesk/settings';

/** The repository: the shell's build and the data folder are found from here by default. */
const root = resolve(import.meta.dirname, '../../..');

const url = (description: string) => text({ pattern: '^https?://[^\\s]+$', accepts: 'an http(s):// URL', description });
const port = (fallback: number, description: string) => integer({ minimum: 1, maximum: 65535, default: fallback, description });

const remotePorts = Object.fromEntries(
  remoteNames.map((name) => [`${name.toUpperCase()}_REMOTE_PORT`, port(defaultPorts[name], `Port of the ${name} remote's static server.`)]),
) as Record<`${Uppercase<RemoteName>}_REMOTE_PORT`, ReturnType<typeof port>>;

export const edgeSettings = {
  EJDESK_DATA_DIR: text({ description: 'Folder holding the published remotes a remote’s static server serves. Unset: `.data` at the repository root.' }),
  HOST: text({ default: '127.0.0.1', description: "Address the shell's server and the remotes' static servers listen on." }),
  SHELL_PORT: port(defaultPorts.shell, "Port of the shell's server: the console's address."),
  API_PORT: port(8000, 'Port of the API the shell forwards /api to, on this host, when API_URL is unset.'),
  API_URL: url('The API the shell forwards /api to; unset, the one on API_PORT of this host.'),
  SHELL_DIST: text({ description: 'The shell’s build that `pnpm edge` serves. Unset: apps/shell/dist (made by `pnpm build`).' }),
  EJDESK_PROXY_SECRET: text({
    secret: true,
    description: 'Sent to the API in X-EJDesk-Proxy by `pnpm edge` (the API’s own setting of that name must match); `pnpm start` makes one.',
  }),
  JOURNAL_UPLOAD_MAX_MB: integer({
    minimum: 1,
    maximum: 1024,
    default: 50,
    description:
      'The largest journal an operator may upload through the console (POST /api/journals/), in MB; the API’s setting of that name decides, so keep them the same.',
  }),
  ...remotePorts,
};

/** The edge's settings, read once as the process starts: a bad one ends it, named. */
export const edge = startingWith('EJ Desk', () => readSettings(edgeSettings));

const dataDir = () => resolve(edge.EJDESK_DATA_DIR ?? join(root, '.data'));
export const host = () => edge.HOST;
export const remotePort = (name: RemoteName) => edge[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_PORT`];
export const shellPort = () => edge.SHELL_PORT;
export const shellDist = () => resolve(edge.SHELL_DIST ?? join(root, 'apps/shell/dist'));
export const apiUrl = () => (edge.API_URL ?? `http://127.0.0.1:${edge.API_PORT}`).replace(/\/$/, '');

/** Every published release of a remote, one folder per version (`pnpm remote deploy` writes them). */
export const releasesDir = (name: RemoteName) => join(dataDir(), 'remotes', name);
