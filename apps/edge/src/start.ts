// `pnpm start`: build what is stale, migrate (and on the embedded database seed the demo data and
// operator), start the API and each remote's static server as supervised processes of their own,
// publish the remotes' new local builds to the registry, start the shell, then print the URL and
// the demo login. Ports: SHELL_PORT (3000), EMAIL_REMOTE_PORT..ADMIN_REMOTE_PORT (3001-3004),
// API_PORT (8000).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { descriptorFile, remoteNames } from '@ejdesk/contract';
import { childEnv } from '@ejdesk/settings';
import {
  apiPort,
  apiUrl,
  dataDir,
  deployTokenFile,
  edge,
  host,
  pidFile,
  releasesDir,
  remoteOrigin,
  root,
  shellOrigin,
  shellPort,
  stoppedMark,
} from './config.ts';
import type { FederationManifest } from './remote-release.ts';
import { deploy, releaseHistory } from './remote.ts';
import { registryFrom, serveShell } from './serve.ts';

// Child processes run in their own folders: hand them an absolute data folder. The console's
// address (where single sign-on's callback and logout come back to) is the shell's unless set.
const env = childEnv({ EJDESK_DATA_DIR: dataDir(), PUBLIC_URL: edge.PUBLIC_URL ?? shellOrigin() });
const apps = [{ name: 'shell', dir: 'apps/shell' }, ...remoteNames.map((n) => ({ name: n, dir: `apps/${n}-remote` }))];
const sharedInputs = ['packages/ui/src', 'packages/api-client/src', 'packages/contract/src', 'packages/export/src', 'rsbuild.shared.ts', 'pnpm-lock.yaml'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    stat.mtimeMs,
    ...readdirSync(path)
      .filter((entry) => entry !== 'dist' && entry !== 'node_modules')
      .map((entry) => newest(join(path, entry))),
  );
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

// 1. Build what is stale: an app whose sources (or the shared packages) changed since its build.
const sharedStamp = Math.max(...sharedInputs.map((p) => newest(join(root, p))));
for (const app of apps) {
  const built = join(root, app.dir, 'dist', 'mf-manifest.json');
  const stale = !existsSync(built) || Math.max(sharedStamp, newest(join(root, app.dir))) > statSync(built).mtimeMs;
  if (stale) {
    console.log(`Building ${app.dir}...`);
    run('pnpm', ['--filter', `./${app.dir}`, 'build']);
  }
}

// 2. Migrate; on the embedded database, the demo operator and data the first time.
// A real server (DATABASE_URL) is migrated by the API itself, which waits for it if it is down.
if (!edge.DATABASE_URL) run('pnpm', ['--filter', '@ejdesk/api', '--silent', 'prepare:demo']);

// 3. The API, then each remote's static server, each a supervised process.
const origin = shellOrigin();
// The mail ingester runs inside the API process (the embedded database can be opened by one process
// only): it watches the mailbox in IMAP_* when set, and processes an admin's Reprocess at once.
const ingest = { EJDESK_HOSTED_WORKER: join(root, 'apps/ingest/src/hosted.ts') };
// The shell's proxy proves itself to the API with this secret; only then is its X-Forwarded-For believed.
const proxySecret = randomBytes(24).toString('hex');
// `pnpm remote deploy` proves itself to the API with this token (kept in the data folder, owner only).
const deployToken = edge.REMOTE_DEPLOY_TOKEN || randomBytes(24).toString('hex');
mkdirSync(dirname(deployTokenFile()), { recursive: true });
writeFileSync(deployTokenFile(), `${deployToken}\n`, { mode: 0o600 });
let stopping = false;
const children = new Map<string, ChildProcess>();

interface Supervised {
  name: string;
  cwd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * Runs a process and starts it again when it dies (1 s, doubling to 30 s while it keeps dying
 * quickly); the others keep serving meanwhile. One stopped on purpose (`pnpm remote stop`, which
 * leaves a mark) stays stopped until the mark goes (`pnpm remote start`). Its pid is kept in the
 * data folder's run/ for operators and the tests.
 */
function supervise(child: Supervised, backoff = 1_000): void {
  const startedAt = Date.now();
  const process_ = spawn(process.execPath, child.args, { cwd: child.cwd, stdio: 'inherit', env: child.env });
  children.set(child.name, process_);
  mkdirSync(dirname(pidFile(child.name)), { recursive: true });
  writeFileSync(pidFile(child.name), `${process_.pid}\n`);
  process_.on('exit', (code, signal) => {
    if (stopping) return;
    if (existsSync(stoppedMark(child.name))) {
      console.error(`${new Date().toISOString()} ${child.name} stopped on request; \`pnpm remote start\` brings it back.`);
      const waiting = setInterval(() => {
        if (stopping) return clearInterval(waiting);
        if (existsSync(stoppedMark(child.name))) return;
        clearInterval(waiting);
        supervise(child);
      }, 300);
      return;
    }
    const delay = Date.now() - startedAt > 60_000 ? 1_000 : backoff;
    console.error(`${new Date().toISOString()} ${child.name} stopped (${signal ?? `exit ${code}`}); restarting it in ${delay / 1000} s.`);
    setTimeout(() => !stopping && supervise(child, Math.min(delay * 2, 30_000)), delay);
  });
}
// Whatever ends this process, its children must not outlive it.
process.on('exit', () => children.forEach((c) => c.kill('SIGTERM')));

// A mark left by an earlier run's `pnpm remote stop` does not outlive that run.
for (const name of remoteNames) rmSync(stoppedMark(`${name}-remote`), { force: true });
supervise({
  name: 'api',
  cwd: join(root, 'apps/api'),
  args: ['--import', 'tsx', 'src/server.ts'],
  env: {
    LOG_LEVEL: 'warn',
    CORS_ORIGINS: origin,
    ...env,
    ...ingest,
    EJDESK_PROXY_SECRET: proxySecret,
    REMOTE_DEPLOY_TOKEN: deployToken,
    // Each remote may come from where this run serves it (its static server, or its CDN's URL).
    REMOTE_ORIGINS: remoteNames.map((n) => `${n}=${new URL(remoteOrigin(n)).origin}`).join(','),
    API_PORT: String(apiPort()),
    API_HOST: '127.0.0.1',
  },
});
for (const name of remoteNames) {
  supervise({ name: `${name}-remote`, cwd: root, args: ['--import', 'tsx', 'apps/edge/src/remote.ts', 'serve', name], env });
}

async function waitFor(url: string, what: string) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`${what} did not start within 30 seconds`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
await waitFor(`${apiUrl()}/api/health/`, 'The API');
await Promise.all(remoteNames.map((n) => waitFor(`${remoteOrigin(n)}/`, `The ${n} remote`)));

// 4. A remote's local build that is new (no release in the registry has its content) is published and
// made current, as `pnpm remote deploy` would; one deployed since from elsewhere stays current.
async function publishLocalBuilds(): Promise<void> {
  let deployed: Set<string>;
  try {
    deployed = new Set((await releaseHistory()).map((r) => `${r.name} ${r.version}`));
  } catch (err) {
    return console.error(`The registry could not be read (${(err as Error).message}): the local builds are not published.`);
  }
  const shellManifest = JSON.parse(readFileSync(join(root, 'apps/shell/dist/mf-manifest.json'), 'utf8')) as FederationManifest;
  for (const name of remoteNames) {
    const dist = join(root, `apps/${name}-remote/dist`);
    const built = JSON.parse(readFileSync(join(dist, descriptorFile), 'utf8')) as { version: string };
    const content = createHash('sha256');
    for (const file of ['mf-manifest.json', 'remoteEntry.js', descriptorFile]) content.update(readFileSync(join(dist, file)));
    const version = `${built.version}+${content.digest('hex').slice(0, 8)}`;
    if (deployed.has(`${name} ${version}`)) continue;
    // A copy the registry does not know (its database was replaced) is published again.
    rmSync(join(releasesDir(name), version), { recursive: true, force: true });
    try {
      await deploy({ name, dist, version, by: 'pnpm start', shell: shellManifest });
      console.log(`Published the ${name} remote's new build as ${version}.`);
    } catch (err) {
      console.error(`The ${name} remote's new build was not published: ${(err as Error).message}`);
    }
  }
}
await publishLocalBuilds();

// 5. The shell: remotes.json is the registry, read through the API on every request.
const remotes = registryFrom(apiUrl());
const servers: FastifyInstance[] = [];
servers.push(await serveShell({ root: join(root, 'apps/shell/dist'), port: shellPort(), host: host(), apiUrl: apiUrl(), remotes, proxySecret }));

console.log(`\nEJ Desk is running at ${origin}`);
if (!edge.DATABASE_URL) console.log('Demo logins: operator@example.com / ejdesk-demo (operator), admin@example.com / ejdesk-admin (admin)');
if (edge.IMAP_HOST) console.log(`Ingesting mail from ${edge.IMAP_HOST}, watching for new mail`);
console.log('Press Ctrl+C to stop.\n');

async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled(servers.map((s) => s.close()));
  const running = [...children.values()].filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(
    running.map(
      (c) =>
        new Promise<void>((done) => {
          c.once('exit', () => done());
          c.kill('SIGTERM');
        }),
    ),
  );
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
