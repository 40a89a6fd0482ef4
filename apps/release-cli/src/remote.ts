// `pnpm remote`: a remote's team ships its build without the shell.
//   deploy <name> [--dist DIR] [--version V] [--manifest URL] [--by WHO] [--canary PERCENT]
//   promote <name> [--by WHO]           the canary for every operator
//   rollback <name> [--by WHO]          ends a canary, else back to the last good release
//   withdraw <name> <version> [--by WHO] never served or returned to again
//   list [name]                         prune <name> --keep N
//   publish-builds [--by WHO]           each remote's local build that is new, deployed (`pnpm start` does)
//   serve <name>                        the edge's static server of the remote's published releases, alone
//   stop | start | restart <name>       the remote's process under a running `pnpm start`
// A deploy publishes the build under its version (older versions stay, for pages already open),
// checks it as the browser will load it (remote-release.ts: the earlier, friendlier refusals), then
// asks the API, which checks it again itself (its origin, files and claims), pins the hashes of its
// manifest and entry, and switches the registry. A refused deploy says why and changes nothing.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Answer } from '@ejdesk/contract';
import type { Release as ReleaseSchema, Switched as SwitchedSchema, Withdrawn as WithdrawnSchema } from '@ejdesk/contract/schemas/registry.ts';
import { descriptorFile, isRemoteName, remoteNames, type RegistryEntry, type RemoteName } from '@ejdesk/contract';
import { apiUrl, deployToken, pidFile, releasesDir, remoteOrigin, root, shellOrigin, stoppedMark } from './config.ts';
import { releaseProblems, type FederationManifest } from './remote-release.ts';

class Refused extends Error {}

/** The registry's answers, as the API's schemas say. */
type Release = Answer<typeof ReleaseSchema>;
type Switched = Answer<typeof SwitchedSchema>;
type Withdrawn = Answer<typeof WithdrawnSchema>;

const versionShape = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/;

async function getJson<T>(url: string, what: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(5_000), headers: { 'cache-control': 'no-cache' } });
  } catch (err) {
    throw new Refused(
      `${what} could not be read at ${url}: ${(err as Error).cause ? String((err as Error & { cause: Error }).cause.message) : (err as Error).message}`,
    );
  }
  if (!response.ok) throw new Refused(`${what} could not be read at ${url}: HTTP ${response.status}`);
  try {
    return (await response.json()) as T;
  } catch {
    throw new Refused(`${what} at ${url} is not JSON`);
  }
}

/** A call to the registry's writes; the API's {"detail"} becomes the refusal. */
async function registryCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = deployToken();
  if (!token) throw new Refused('no deployers\u2019 token: set REMOTE_DEPLOY_TOKEN, or run `pnpm start` first (it writes one to the data folder)');
  let response: Response;
  try {
    response = await fetch(`${apiUrl()}/api/registry${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new Refused(`the API at ${apiUrl()} does not answer: is EJ Desk running?`);
  }
  const answer = (await response.json().catch(() => ({}))) as T & { detail?: string };
  if (!response.ok) throw new Refused(answer.detail ?? `the API answered HTTP ${response.status}`);
  return answer;
}

const currentRegistry = () => getJson<{ api_contract: number; remotes: RegistryEntry[] }>(`${apiUrl()}/api/registry/`, 'the registry');

export interface DeployOptions {
  name: RemoteName;
  dist?: string | undefined;
  version?: string | undefined;
  manifest?: string | undefined;
  by?: string | undefined;
  /** A canary: the release for this share of the operators (1 to 99), the current one for the rest. */
  canary?: number | undefined;
  /** The shell's manifest when the caller has it (publish-builds: the shell's local build, not yet served). */
  shell?: FederationManifest;
}

/** Publishes (unless hosted elsewhere), checks and switches; returns what the registry now says. */
export async function deploy(options: DeployOptions): Promise<Switched> {
  const { name } = options;
  let manifestUrl = options.manifest;
  let published: string | undefined;
  let version = options.version;
  if (!manifestUrl) {
    const dist = resolve(options.dist ?? join(root, `apps/${name}-remote/dist`));
    if (!existsSync(join(dist, 'mf-manifest.json'))) throw new Refused(`${dist} holds no build (no mf-manifest.json): build it first`);
    version ??= (JSON.parse(await readFile(join(dist, descriptorFile), 'utf8').catch(() => '{}')) as { version?: string }).version;
    if (!version || !versionShape.test(version)) throw new Refused(`the version '${version ?? ''}' is not usable: letters, digits and . + _ - (e.g. 1.4.0)`);
    published = join(releasesDir(name), version);
    if (existsSync(published)) throw new Refused(`${name} ${version} is already published: give the new build a new version (--version)`);
    // Copied under a temporary name and renamed: a browser never sees half a release.
    const incoming = join(releasesDir(name), `.incoming-${version}-${process.pid}`);
    await mkdir(releasesDir(name), { recursive: true });
    try {
      await cp(dist, incoming, { recursive: true, filter: (source) => !/mf-stats\.json/.test(source) });
      await rename(incoming, published);
    } catch (err) {
      await rm(incoming, { recursive: true, force: true });
      throw err;
    }
    manifestUrl = `${remoteOrigin(name)}/${version}/mf-manifest.json`;
  }
  try {
    // Checked as the browser will load it: over HTTP, from where the registry will point.
    const manifest = await getJson<FederationManifest>(manifestUrl, `${name}'s manifest`);
    const descriptor = await getJson<RegistryEntry>(new URL(descriptorFile, manifestUrl).href, `${name}'s ${descriptorFile}`);
    version ??= descriptor.version;
    if (!version || !versionShape.test(version)) throw new Refused(`the version '${version ?? ''}' is not usable`);
    const shell = options.shell ?? (await getJson<FederationManifest>(`${shellOrigin()}/mf-manifest.json`, 'the shell\u2019s manifest'));
    const registry = await currentRegistry();
    const problems = releaseProblems({ name, manifest, descriptor, shell, apiContract: registry.api_contract, others: registry.remotes });
    if (problems.length) throw new Refused(`${name} ${version} is refused:\n  - ${problems.join('\n  - ')}`);
    const { version: _built, manifest: _m, ...declared } = descriptor;
    return await registryCall<Switched>('POST', `/${name}/releases/`, {
      version,
      manifest: manifestUrl,
      descriptor: declared,
      by: options.by ?? userInfo().username,
      ...(options.canary !== undefined ? { canary: options.canary } : {}),
    });
  } catch (err) {
    // Refused: the published copy goes too, and the registry was never touched.
    if (published) await rm(published, { recursive: true, force: true });
    throw err;
  }
}

export async function rollback(name: RemoteName, by = userInfo().username) {
  return registryCall<Switched>('POST', `/${name}/rollback/`, { by });
}

export async function promote(name: RemoteName, by = userInfo().username) {
  return registryCall<Switched>('POST', `/${name}/promote/`, { by });
}

export async function withdraw(name: RemoteName, version: string, by = userInfo().username) {
  return registryCall<Withdrawn>('POST', `/${name}/withdraw/`, { version, by });
}

/**
 * Deletes the published releases of a remote beyond the newest `keep` (in the registry's deploy
 * order), never one the registry points at (current or canary) nor the one a rollback would go
 * back to (the newest before the current neither withdrawn nor rolled back from); the registry
 * keeps their history. Returns the versions deleted.
 */
export async function prune(name: RemoteName, keep: number): Promise<string[]> {
  const history = await releaseHistory(name);
  const current = history.findIndex((r) => r.current);
  const rollbackTo = current >= 0 ? history.slice(current + 1).find((r) => !r.withdrawn && !r.rolled_back) : undefined;
  const pinned = new Set([...history.filter((r) => r.current || r.canary), ...(rollbackTo ? [rollbackTo] : [])].map((r) => r.version));
  const rank = (version: string) => {
    const at = history.findIndex((r) => r.version === version);
    return at < 0 ? history.length : at;
  };
  const published = existsSync(releasesDir(name))
    ? (await readdir(releasesDir(name), { withFileTypes: true })).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name)
    : [];
  const newestFirst = published.sort((a, b) => rank(a) - rank(b));
  const gone = newestFirst.slice(keep).filter((version) => !pinned.has(version));
  for (const version of gone) await rm(join(releasesDir(name), version), { recursive: true, force: true });
  return gone;
}

/** --canary PERCENT: a whole number from 1 to 99. */
function canaryOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,2}$/.test(text) || Number(text) < 1) throw new Refused(`--canary takes a share of the operators from 1 to 99 (percent), not '${text}'`);
  return Number(text);
}

/** Every release the registry holds (of one remote, or all), newest first. */
export const releaseHistory = (name?: RemoteName) => registryCall<Release[]>('GET', `/releases/${name ? `?name=${name}` : ''}`);

async function list(name?: RemoteName) {
  const releases = await releaseHistory(name);
  if (!releases.length) return console.log('No release deployed yet.');
  for (const r of releases) {
    const mark = r.current ? '*' : r.canary ? '~' : r.withdrawn ? 'x' : r.rolled_back ? '-' : ' ';
    console.log(
      `${mark} ${r.name.padEnd(6)} ${r.version.padEnd(24)} ${r.deployed_at.slice(0, 19).replace('T', ' ')}  ${r.deployed_by.padEnd(12)} ${r.manifest}`,
    );
  }
  console.log('(* current, ~ canary, x withdrawn, - rolled back from: never returned to)');
}

/**
 * Each remote's local build that is new (no release in the registry has its content) is published
 * and made current, checked against the shell's local build; one deployed since from elsewhere
 * stays current. `pnpm start` runs this once its API and remote servers serve.
 */
async function publishBuilds(by: string) {
  let deployed: Set<string>;
  try {
    deployed = new Set((await releaseHistory()).map((r) => `${r.name} ${r.version}`));
  } catch (err) {
    return console.error(`The registry could not be read (${(err as Error).message}): the local builds are not published.`);
  }
  const shell = JSON.parse(readFileSync(join(root, 'apps/shell/dist/mf-manifest.json'), 'utf8')) as FederationManifest;
  for (const name of remoteNames) {
    const dist = join(root, `apps/${name}-remote/dist`);
    const built = JSON.parse(readFileSync(join(dist, descriptorFile), 'utf8')) as { version: string };
    const content = createHash('sha256');
    for (const file of ['mf-manifest.json', 'remoteEntry.js', descriptorFile]) content.update(readFileSync(join(dist, file)));
    const version = `${built.version}+${content.digest('hex').slice(0, 8)}`;
    if (deployed.has(`${name} ${version}`)) continue;
    // A copy the registry does not know (its database was replaced) is published again.
    await rm(join(releasesDir(name), version), { recursive: true, force: true });
    try {
      await deploy({ name, dist, version, by, shell });
      console.log(`Published the ${name} remote's new build as ${version}.`);
    } catch (err) {
      console.error(`The ${name} remote's new build was not published: ${(err as Error).message}`);
    }
  }
}

/** The edge's static server of one remote's published releases, run by path until it ends. */
function serve(name: RemoteName): Promise<void> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/remote-server.ts', name], { cwd: join(root, 'apps/edge'), stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  return new Promise((done) =>
    server.on('exit', (code) => {
      process.exitCode = code ?? 1;
      done();
    }),
  );
}

/** Stops, starts or restarts a remote's process under `pnpm start` (its supervisor does the rest). */
async function control(action: 'stop' | 'start' | 'restart', name: RemoteName) {
  const process_ = `${name}-remote`;
  const pid = existsSync(pidFile(process_)) ? Number(readFileSync(pidFile(process_), 'utf8')) : NaN;
  if (action === 'start') {
    await rm(stoppedMark(process_), { force: true });
    return console.log(`${name}: started (within a second) by the running \`pnpm start\`.`);
  }
  if (action === 'stop') await writeFile(stoppedMark(process_), `${new Date().toISOString()}\n`);
  if (!Number.isInteger(pid)) throw new Refused(`no ${name} remote process is on record: is \`pnpm start\` running?`);
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  console.log(action === 'stop' ? `${name}: stopped; \`pnpm remote start ${name}\` brings it back.` : `${name}: restarting.`);
}

const usage = `pnpm remote deploy <name> [--dist DIR] [--version V] [--manifest URL] [--by WHO] [--canary PERCENT]
pnpm remote promote <name> [--by WHO]
pnpm remote rollback <name> [--by WHO]
pnpm remote withdraw <name> <version> [--by WHO]
pnpm remote list [name]
pnpm remote prune <name> --keep N
pnpm remote publish-builds [--by WHO]
pnpm remote serve <name>
pnpm remote stop|start|restart <name>
names: ${remoteNames.join(', ')}`;

/** The command line, a mistyped one refused with parseArgs's reason and the usage. */
function commandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        dist: { type: 'string' },
        version: { type: 'string' },
        manifest: { type: 'string' },
        by: { type: 'string' },
        canary: { type: 'string' },
        keep: { type: 'string' },
      },
    });
  } catch (err) {
    if (String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) throw new Refused(`${(err as Error).message}\n${usage}`);
    throw err;
  }
}

async function main() {
  const { positionals, values } = commandLine();
  const [command, name, version] = positionals;
  if (command === 'list' && (name === undefined || isRemoteName(name))) return list(name);
  if (command === 'publish-builds' && name === undefined) return publishBuilds(values.by ?? userInfo().username);
  if (!isRemoteName(name)) throw new Refused(`${name ? `'${name}' is not a remote` : 'which remote?'}\n${usage}`);
  switch (command) {
    case 'deploy': {
      const canary = canaryOf(values.canary);
      const { from, to } = await deploy({ name, ...values, canary });
      if (canary !== undefined)
        return console.log(
          `${name}: ${to} for ${canary}% of operators (canary), ${from} for the rest. \`pnpm remote promote ${name}\` makes it everyone's; \`pnpm remote rollback ${name}\` ends it.`,
        );
      return console.log(`${name}: ${from ?? 'none'} -> ${to}. Pages load it from their next reload; open pages keep ${from ?? 'theirs'}.`);
    }
    case 'prune': {
      if (!/^\d{1,4}$/.test(values.keep ?? ''))
        throw new Refused(`--keep takes how many of the newest releases to keep (0 or more), not '${values.keep ?? ''}'`);
      const gone = await prune(name, Number(values.keep));
      return console.log(gone.length ? `${name}: deleted ${gone.join(', ')}.` : `${name}: nothing to delete.`);
    }
    case 'promote': {
      const { from, to } = await promote(name, values.by);
      return console.log(`${name}: ${from} -> ${to} for every operator.`);
    }
    case 'rollback': {
      const { from, to } = await rollback(name, values.by);
      return console.log(`${name}: rolled back ${from} -> ${to}.`);
    }
    case 'withdraw': {
      if (!version || !versionShape.test(version)) throw new Refused(`which version of ${name}? pnpm remote withdraw ${name} <version>`);
      const { current } = await withdraw(name, version, values.by);
      return console.log(
        `${name}: ${version} withdrawn; ${current ? `${current} is current` : `no release of ${name} is served until its next deploy`}. Its files stay published for pages that have it open.`,
      );
    }
    case 'serve':
      return serve(name);
    case 'stop':
    case 'start':
    case 'restart':
      return control(command, name);
    default:
      throw new Refused(usage);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Refused ? `Refused: ${err.message}` : err);
    process.exit(1);
  });
}
