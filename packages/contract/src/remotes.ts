// The remotes the console is composed of, their default ports, and what each declares of itself.
// The build setup, the edge's servers and deployer, the shell and the API all read these names here.
import type { DescriptorFields } from './schemas/registry.ts';

export const remoteNames = ['email', 'ej', 'files', 'admin'] as const;
export type RemoteName = (typeof remoteNames)[number];

export const isRemoteName = (name: string | undefined): name is RemoteName => remoteNames.includes(name as RemoteName);

/** What a remote owns and declares (its schema, documented field by field, is in schemas/registry.ts). */
export type RemoteDescriptor = Omit<DescriptorFields, 'name'> & { name: RemoteName };
/** One remote as remotes.json names it. */
export interface RegistryEntry extends RemoteDescriptor {
  manifest: string;
  version: string;
  /**
   * The entry script the manifest names, and the SHA-384 (SRI form) of it and of the manifest as
   * the API fetched them at deploy: the shell loads the entry with this integrity, so a file
   * changed since is refused by the browser. Absent for releases recorded before they were pinned.
   */
  entry?: string;
  integrity?: { entry: string; manifest: string };
}

/** The first path segments the shell itself answers: no remote may claim them. */
export const shellPaths = ['login', 'change-password', 'api', 'static'] as const;

/**
 * The origin a URL names when it is nothing but an http(s) origin (scheme, host, port: an admin's
 * allowed origin, a setting); null otherwise.
 */
export function bareOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const bare = (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
  return bare && /^https?:\/\/[^/?#]+\/?$/i.test(text) ? url.origin : null;
}
/** The file a remote's build writes its descriptor to, beside mf-manifest.json. */
export const descriptorFile = 'ejdesk-remote.json';

/** Default ports: the shell on 3000, the remotes on 3001-3004 (the API's is in its settings, 8000). */
export const defaultPorts: Record<RemoteName | 'shell', number> = { shell: 3000, email: 3001, ej: 3002, files: 3003, admin: 3004 };
