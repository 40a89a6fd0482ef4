// What the API checks of a release before it records one, whichever client deploys it: the
// manifest is on the remote's allowed origins and the API reads it itself (a short timeout, a size
// cap, http(s) only, no redirect off those origins); it names the remote and exposes ./routes; the
// entry script it names is there too and is hashed (SHA-384, as the browser will check it); the
// descriptor was built against this API's contract and claims only paths no other remote (current
// or canary) and not the shell holds. `pnpm remote` checks much of this first, with friendlier
// words; this is the authority.
import { createHash } from 'node:crypto';
import { apiContractVersion, shellPaths } from '@ejdesk/contract';

/** A release refused: 400 for what it is, 409 for what it would take from another. */
export class Refusal extends Error {
  constructor(
    readonly status: 400 | 409,
    detail: string,
  ) {
    super(detail);
  }
}

const timeoutMs = 5_000;
const manifestLimit = 1024 * 1024;
const entryLimit = 10 * 1024 * 1024;
const maxRedirects = 3;

/** The SHA-384 of a file in the form a script's integrity attribute takes. */
const integrityOf = (bytes: Uint8Array) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/**
 * A file read over HTTP from the remote's allowed origins only: each redirect is followed only
 * onto them, the body is read up to `limit` bytes, all within the timeout.
 */
async function fetchAllowed(url: string, what: string, allowed: (origin: string) => boolean, limit: number): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(timeoutMs);
  let at = url;
  for (let hop = 0; ; hop++) {
    const parsed = new URL(at);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Refusal(400, `${what} at ${at} is not on http(s).`);
    if (!allowed(parsed.origin))
      throw new Refusal(400, `${what} at ${at} is on ${parsed.origin}, which is not one of the remote's allowed origins (an admin adds them on Releases).`);
    let response: Response;
    try {
      response = await fetch(at, { redirect: 'manual', signal, headers: { 'cache-control': 'no-cache' } });
    } catch (err) {
      if (signal.aborted) throw new Refusal(400, `${what} at ${at} did not answer within ${timeoutMs / 1000} s.`);
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new Refusal(400, `${what} could not be read at ${at}: ${cause}.`);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= maxRedirects) throw new Refusal(400, `${what} at ${url} redirects more than ${maxRedirects} times.`);
      at = new URL(location, at).href;
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Refusal(400, `${what} could not be read at ${at}: HTTP ${response.status}.`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body.getReader();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        size += read.value.length;
        if (size > limit) {
          await reader.cancel().catch(() => {});
          throw new Refusal(400, `${what} at ${at} is larger than ${kb(limit)}.`);
        }
        chunks.push(read.value);
      }
    } catch (err) {
      if (err instanceof Refusal) throw err;
      throw new Refusal(400, signal.aborted ? `${what} at ${at} was not read within ${timeoutMs / 1000} s.` : `${what} at ${at} was cut off.`);
    }
    return Buffer.concat(chunks);
  }
}

/** The parts of a Module Federation manifest (mf-manifest.json) the checks read. */
interface FederationManifest {
  name?: unknown;
  exposes?: { path?: unknown }[];
  metaData?: { remoteEntry?: { name?: unknown; path?: unknown; type?: unknown }; publicPath?: unknown };
}

/** The entry script's URL, as the Module Federation runtime finds it from the manifest. */
function entryUrlOf(manifest: FederationManifest, manifestUrl: string): string {
  const entry = manifest.metaData?.remoteEntry;
  if (typeof entry?.name !== 'string' || !entry.name) throw new Refusal(400, 'its manifest names no entry script (metaData.remoteEntry.name).');
  if (entry.type !== undefined && entry.type !== 'global')
    throw new Refusal(400, `its entry script is of type '${String(entry.type)}'; the console loads a 'global' one.`);
  const publicPath = manifest.metaData?.publicPath;
  if (publicPath !== undefined && typeof publicPath !== 'string')
    throw new Refusal(400, 'its manifest computes its public path at run time: the entry could not be pinned.');
  const base = !publicPath || publicPath === 'auto' ? manifestUrl : new URL(publicPath, manifestUrl).href;
  const folder = typeof entry.path === 'string' ? entry.path.replace(/^\.?\/+|\/+$/g, '').replace(/^\.$/, '') : '';
  try {
    return new URL(folder ? `${folder}/${entry.name}` : entry.name, base).href;
  } catch {
    throw new Refusal(400, 'its manifest names an entry script that is not a URL.');
  }
}

interface Pinned {
  entry: string;
  entryIntegrity: string;
  manifestIntegrity: string;
}

/**
 * Reads the release's manifest and entry script as a browser will, from its remote's allowed
 * origins, checks the manifest, and pins both by their SHA-384.
 */
export async function pinRelease(name: string, manifestUrl: string, allowed: (origin: string) => boolean): Promise<Pinned> {
  const bytes = await fetchAllowed(manifestUrl, `${name}'s manifest`, allowed, manifestLimit);
  let manifest: FederationManifest;
  try {
    manifest = JSON.parse(Buffer.from(bytes).toString('utf8')) as FederationManifest;
  } catch {
    throw new Refusal(400, `${name}'s manifest at ${manifestUrl} is not JSON.`);
  }
  if (!manifest || typeof manifest !== 'object') throw new Refusal(400, `${name}'s manifest at ${manifestUrl} is not a manifest.`);
  if (manifest.name !== name) throw new Refusal(400, `its manifest names the remote '${String(manifest.name)}', not '${name}'.`);
  if (!Array.isArray(manifest.exposes) || !manifest.exposes.some((e) => e?.path === './routes'))
    throw new Refusal(400, 'its manifest does not expose ./routes (the module the console loads).');
  const entry = entryUrlOf(manifest, manifestUrl);
  const script = await fetchAllowed(entry, `${name}'s entry script`, allowed, entryLimit);
  return { entry, entryIntegrity: integrityOf(script), manifestIntegrity: integrityOf(bytes) };
}

interface Claims {
  paths: string[];
  nav: { path: string }[];
  screens?: Record<string, string> | undefined;
  contract?: number | undefined;
}

/** The first path segment of a side-nav or screen path. */
const segmentOf = (path: string) => path.split('/')[1] ?? '';

/**
 * What the descriptor may not claim: a path of the shell's or of another remote's (its current
 * release or its canary); a side-nav entry or screen outside its own paths; another API contract.
 */
export function claimRefusal(name: string, descriptor: Claims, others: { name: string; paths: string[] }[]): Refusal | null {
  if (descriptor.contract !== apiContractVersion)
    return new Refusal(400, `it was built against API contract ${descriptor.contract ?? '(none)'}, and this API serves contract ${apiContractVersion}.`);
  const own = new Set(descriptor.paths);
  const shells = descriptor.paths.filter((p) => (shellPaths as readonly string[]).includes(p));
  if (shells.length) return new Refusal(409, `${shells.map((p) => `/${p}`).join(', ')} ${shells.length > 1 ? 'are' : 'is'} the shell's own.`);
  for (const other of others) {
    if (other.name === name) continue;
    const taken = descriptor.paths.filter((p) => other.paths.includes(p));
    if (taken.length) return new Refusal(409, `${taken.map((p) => `/${p}`).join(', ')} belong${taken.length > 1 ? '' : 's'} to the remote '${other.name}'.`);
  }
  const outside = [...descriptor.nav.map((n) => n.path), ...Object.values(descriptor.screens ?? {})].filter((p) => !own.has(segmentOf(p)));
  if (outside.length) return new Refusal(400, `its side nav or screens point outside the paths it owns: ${[...new Set(outside)].join(', ')}.`);
  return null;
}
