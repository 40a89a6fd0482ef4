// Runtime composition: remotes.json (name -> manifest URL) is fetched at startup and registered with
// the Module Federation runtime; each remote's ./routes module is loaded the first time one of its
// paths is visited. Changing a URL in remotes.json switches a remote's version without a rebuild.
import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

export type RemoteManifests = Record<string, string>;

let manifests: RemoteManifests = {};

export async function registerRemotesFrom(url: string): Promise<void> {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    manifests = (await response.json()) as RemoteManifests;
    registerRemotes(Object.entries(manifests).map(([name, entry]) => ({ name, entry })));
  } catch (error) {
    console.error('Could not read the remotes configuration', error);
  }
}

export interface RemoteRoutesModule {
  default: ComponentType;
}

/** Loads a remote's routes; after a failure, forgets the cached manifest so Retry really retries. */
export async function loadRemoteRoutes(name: string): Promise<ComponentType> {
  const entry = manifests[name];
  if (!entry) throw new Error(`The remote '${name}' is not configured in remotes.json.`);
  try {
    const module = await loadRemote<RemoteRoutesModule>(`${name}/routes`);
    if (!module?.default) throw new Error(`The remote '${name}' did not provide its routes.`);
    return module.default;
  } catch (error) {
    registerRemotes([{ name, entry }], { force: true });
    throw error;
  }
}
