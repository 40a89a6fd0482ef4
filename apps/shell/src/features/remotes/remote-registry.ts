// Runtime composition: remotes.json is fetched at startup. Each entry names a remote's manifest
// URL and what its own build declared (RemoteDescriptor): the paths it owns, its side-nav entries
// and the role its screens need. The shell registers the remotes with the Module Federation
// runtime and draws its routes and side nav from the entries, so it holds no remote's paths: a
// remote adds a screen, or moves to a new address, with no shell release.
// A release the registry pinned is registered by its entry script, which is loaded with the
// integrity the API recorded at deploy: a file changed since is refused by the browser and the
// section is unavailable, as when it fails to load (the entry in turn pins the remote's chunks).
import type { ComponentType } from 'react';
import { loadRemote, registerPlugins, registerRemotes, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RegistryEntry } from '@ejdesk/contract';
import { http, sessionStore } from '@ejdesk/api-client';

let entries: RegistryEntry[] = [];
let failure: string | null = null;

/** The integrity each pinned entry script must have, by its URL. */
const pinned = new Map<string, string>();

/** Loads a pinned entry script with its integrity, in CORS mode (which integrity needs). */
const integrityPlugin: ModuleFederationRuntimePlugin = {
  name: 'ejdesk-entry-integrity',
  createScript({ url }) {
    const integrity = pinned.get(url);
    if (!integrity) return undefined;
    const script = document.createElement('script');
    script.src = url;
    script.integrity = integrity;
    script.crossOrigin = 'anonymous';
    return script;
  },
};

/** How the runtime finds a remote: its pinned entry script, or (a release from before pinning) its manifest. */
function remoteOf(entry: RegistryEntry) {
  if (entry.entry && entry.integrity) {
    pinned.set(entry.entry, entry.integrity.entry);
    return { name: entry.name, entry: entry.entry, type: 'global' as const, entryGlobalName: entry.name };
  }
  return { name: entry.name, entry: entry.manifest };
}

/** Why remotes.json could not be read at startup, or null. */
export const registryFailure = () => failure;

/** remotes.json; with the operator's token, the releases for that operator (a canary's, in its share). */
async function readRegistry(url: string): Promise<RegistryEntry[]> {
  const token = sessionStore.getState().token;
  const response = await fetch(url, { cache: 'no-store', ...(token ? { headers: { authorization: `JWT ${token}` } } : {}) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const document = (await response.json()) as { remotes?: RegistryEntry[] };
  if (!Array.isArray(document.remotes)) throw new Error(`${url}: no "remotes" list`);
  return document.remotes;
}

/**
 * After a remote's releases changed (a live `release` event): its section's name when this
 * operator's release of it is now another than the page loaded, else null (a canary outside their
 * share, a remote this page never had). The page keeps running what it loaded until reloaded.
 */
export async function changedSection(name: string, url = '/remotes.json'): Promise<string | null> {
  const loaded = entries.find((e) => e.name === name);
  if (!loaded) return null;
  const now = (await readRegistry(url)).find((e) => e.name === name);
  return now && now.version !== loaded.version ? loaded.section : null;
}

export async function registerRemotesFrom(url: string): Promise<void> {
  try {
    entries = await readRegistry(url);
    registerPlugins([integrityPlugin]);
    registerRemotes(entries.map(remoteOf));
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    console.error('Could not read the remotes configuration', error);
  }
}

/** The remote that owns a path (by its first segment), if any. */
export function ownerOf(pathname: string): RegistryEntry | undefined {
  const segment = pathname.split('/')[1] ?? '';
  return entries.find((entry) => entry.paths.includes(segment));
}

/** The path of a screen some remote names (`screens` in its descriptor), if one does. */
export function screenPath(name: string): string | undefined {
  return entries.map((entry) => entry.screens?.[name]).find((path) => path !== undefined);
}

interface NavEntry {
  label: string;
  to: string;
}

/** Every remote's side-nav entries the role may open, in their declared order. */
export function navigationFor(role: string | null): NavEntry[] {
  return entries
    .filter((entry) => !entry.role || entry.role === role)
    .flatMap((entry) => entry.nav)
    .sort((a, b) => a.order - b.order)
    .map((item) => ({ label: item.label, to: item.path }));
}

interface RemoteRoutesModule {
  default: ComponentType;
}

/**
 * Loads a remote's routes; after a failure (unreachable, or refused by its integrity), forgets
 * what the runtime cached so Retry really retries, and reports it.
 */
export async function loadRemoteRoutes(name: string): Promise<ComponentType> {
  const entry = entries.find((e) => e.name === name);
  if (!entry) throw new Error(`The remote '${name}' is not configured in remotes.json.`);
  try {
    const module = await loadRemote<RemoteRoutesModule>(`${name}/routes`);
    if (!module?.default) throw new Error(`The remote '${name}' did not provide its routes.`);
    return module.default;
  } catch (error) {
    registerRemotes([remoteOf(entry)], { force: true });
    reportLoadFailure(name);
    throw error;
  }
}

/**
 * Tells the registry this operator could not load the remote's release (or it threw at render):
 * a canary that enough operators cannot load rolls back by itself. Best effort: a report that
 * cannot be sent changes nothing on the screen.
 */
export function reportLoadFailure(name: string): void {
  const entry = entries.find((e) => e.name === name);
  if (!entry || !sessionStore.getState().token) return;
  http
    .post(`/registry/${name}/failures/`, { version: entry.version })
    .catch((error: unknown) => console.warn(`Could not report ${name}'s load failure`, error));
}
