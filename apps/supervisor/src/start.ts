// `pnpm start`: build what is stale, migrate (and on the embedded database seed the demo data and
// operator), start the API, each remote's static server and the shell's server as supervised
// processes of their own, publish the remotes' new local builds to the registry, then print the
// URL and the demo login. Ports: SHELL_PORT (3000), EMAIL_REMOTE_PORT..ADMIN_REMOTE_PORT
// (3001-3004), API_PORT (8000). The servers are the edge's (apps/edge) and the publishing is
// `pnpm remote publish-builds` (apps/release-cli), run by path: an app never imports another.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { remoteNames, type RemoteName } from '@ejdesk/contract';
import { childEnv } from '@ejdesk/settings';
import {
  apiPort,
  apiUrl,
  dataDir,
  deployTokenFile,
  localOrigin,
  pidFile,
  remoteOrigin,
  remotePort,
  root,
  shellOrigin,
  shellPort,
  stoppedMark,
  supervisor,
} from './config.ts';
import {
  apiProgress,
  hearListening,
  ownProgress,
  portTaken,
  serverProgress,
  StoppedBeforeReady,
  stoppedSaying,
  takenPort,
  waitUntilServing,
  type Port,
  type Progress,
} from './wait.ts';

// Child processes run in their own folders: hand them an absolute data folder. The console's
// address (where single sign-on's callback and logout come back to) is the shell's unless set.
const env = childEnv({ EJDESK_DATA_DIR: dataDir(), PUBLIC_URL: supervisor.PUBLIC_URL ?? shellOrigin() });
const edgeApp = join(root, 'apps/edge');
const apps = [{ name: 'shell', dir: 'apps/shell' }, ...remoteNames.map((n) => ({ name: n, dir: `apps/${n}-remote` }))];
const sharedInputs = ['packages/ui/src', 'packages/api-client/src', 'packages/contract/src', 'packages/export/src', 'rsbuild.shared.ts', 'pnpm-lock.yaml'];

// 0. Each server of this run needs a port of its own: one held by another process (an earlier
// `pnpm start`, a dev server) is said now, before anything is built, rather than passing for ours.
const listensOn = {
  api: { port: apiPort(), host: '127.0.0.1', setting: 'API_PORT' },
  remote: (name: RemoteName): Port => ({ port: remotePort(name), host: supervisor.HOST, setting: `${name.toUpperCase()}_REMOTE_PORT` }),
  shell: { port: shellPort(), host: supervisor.HOST, setting: 'SHELL_PORT' },
};
const ports = [listensOn.api, ...remoteNames.map(listensOn.remote), listensOn.shell];
for (const port of ports) {
  const first = ports.find((other) => other.port === port.port)!;
  if (first !== port) {
    console.error(`EJ Desk: ${first.setting} and ${port.setting} are both ${port.port}; each server needs a port of its own.`);
    process.exit(1);
  }
  if (await portTaken(port)) {
    console.error(`EJ Desk: ${takenPort(port)}`);
    process.exit(1);
  }
}

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
if (!supervisor.DATABASE_URL) {
  console.log('Migrating the embedded database (and preparing the demo the first time)...');
  run('pnpm', ['--filter', '@ejdesk/api', '--silent', 'prepare:demo']);
}

// 3. The API, then each remote's static server and the shell's server, each a supervised process.
const origin = shellOrigin();
// The mail ingester runs inside the API process (the embedded database can be opened by one process
// only): it watches the mailbox in IMAP_* when set, and processes an admin's Reprocess at once.
const ingest = { EJDESK_HOSTED_WORKER: join(root, 'apps/ingest/src/hosted.ts') };
// The shell's proxy proves itself to the API with this secret; only then is its X-Forwarded-For believed.
const proxySecret = randomBytes(24).toString('hex');
// `pnpm remote deploy` proves itself to the API with this token (kept in the data folder, owner only).
const deployToken = supervisor.REMOTE_DEPLOY_TOKEN || randomBytes(24).toString('hex');
mkdirSync(dirname(deployTokenFile()), { recursive: true });
writeFileSync(deployTokenFile(), `${deployToken}\n`, { mode: 0o600 });
let stopping = false;
// Until EJ Desk is running, a process that stops fails the start rather than being started again.
let starting = true;
const children = new Map<string, ChildProcess>();
const supervised = new Map<string, Supervised>();
const ready = new Set<string>();

interface Supervised {
  name: string;
  /** Its name as a sentence begins it: "The API". */
  what: string;
  port: Port;
  cwd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Never settles: what follows a stop (or a failed start) must not run while the process ends. */
const untilExit = () => new Promise<never>(() => undefined);

/** The start fails: why, in one line, then exit 1 (the children end with this process). */
async function startFailed(why: Promise<string> | string): Promise<never> {
  if (stopping) return untilExit();
  stopping = true;
  console.error(`\n${await why}`);
  process.exit(1);
}

/**
 * Runs a process and starts it again when it dies (1 s, doubling to 30 s while it keeps dying
 * quickly); the others keep serving meanwhile. One stopped on purpose (`pnpm remote stop`, which
 * leaves a mark) stays stopped until the mark goes (`pnpm remote start`). Its pid is kept in the
 * data folder's run/ for operators and the tests.
 */
function supervise(child: Supervised, backoff = 1_000): void {
  if (stopping) return;
  const startedAt = Date.now();
  // The IPC channel is how the server says it listens (its port taken by another, it never does).
  const process_ = spawn(process.execPath, child.args, { cwd: child.cwd, stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: child.env });
  hearListening(process_);
  children.set(child.name, process_);
  supervised.set(child.name, child);
  mkdirSync(dirname(pidFile(child.name)), { recursive: true });
  writeFileSync(pidFile(child.name), `${process_.pid}\n`);
  process_.on('exit', (code, signal) => {
    if (stopping) return;
    if (starting) {
      void startFailed(
        stoppedSaying(child.what, signal ?? `exit ${code}`, child.port, ready.has(child.name) ? 'right after it was ready' : 'before it was ready'),
      );
      return;
    }
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
// Heard from the first child on: Ctrl+C while one is awaited stops them all, with exit 0.
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// A mark left by an earlier run's `pnpm remote stop` does not outlive that run.
for (const name of remoteNames) rmSync(stoppedMark(`${name}-remote`), { force: true });
supervise({
  name: 'api',
  what: 'The API',
  port: listensOn.api,
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
  supervise({
    name: `${name}-remote`,
    what: `The ${name} remote's server`,
    port: listensOn.remote(name),
    cwd: edgeApp,
    args: ['--import', 'tsx', 'src/remote-server.ts', name],
    env,
  });
}

// Each is waited for as long as it runs, however busy the machine; one that exits first ends the start
// (quietly when it is stopping: Ctrl+C reaches the children too). Ready is the process's own word
// that it listens, then its answer: an answer alone may come from another process on the port.
async function serving(name: string, progress: () => Promise<Progress>): Promise<void> {
  if (stopping) return untilExit();
  const child = children.get(name)!;
  const { what, port } = supervised.get(name)!;
  try {
    await waitUntilServing({ what, child, progress: ownProgress(child, progress), port });
    ready.add(name);
  } catch (err) {
    if (!(err instanceof StoppedBeforeReady)) throw err;
    return startFailed(err.message);
  }
}
await serving('api', () => apiProgress(apiUrl()));
console.log('The API is ready.');
await Promise.all(remoteNames.map((n) => serving(`${n}-remote`, () => serverProgress(`${localOrigin(remotePort(n))}/`))));

// 4. A remote's local build that is new (no release in the registry has its content) is published and
// made current, as `pnpm remote deploy` would; one deployed since from elsewhere stays current.
// A failure is said and the run goes on with the releases already current.
await new Promise((done) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/remote.ts', 'publish-builds', '--by', 'pnpm start'], {
    cwd: join(root, 'apps/release-cli'),
    stdio: 'inherit',
    env: { ...env, REMOTE_DEPLOY_TOKEN: deployToken, API_URL: apiUrl() },
  }).on('exit', done),
);

// 5. The shell's server: remotes.json is the registry, read through the API on every request.
if (stopping) await untilExit();
supervise({
  name: 'shell',
  what: "The shell's server",
  port: listensOn.shell,
  cwd: edgeApp,
  args: ['--import', 'tsx', 'src/edge.ts'],
  env: { ...env, SHELL_DIST: join(root, 'apps/shell/dist'), API_URL: apiUrl(), EJDESK_PROXY_SECRET: proxySecret },
});
await serving('shell', () => serverProgress(`${localOrigin(shellPort())}/remotes.json`));
// One that stopped meanwhile is failing the start: it is not running.
if (stopping) await untilExit();
starting = false;

console.log(`\nEJ Desk is running at ${origin}`);
if (!supervisor.DATABASE_URL) console.log('Demo logins: operator@example.com / ejdesk-demo (operator), admin@example.com / ejdesk-admin (admin)');
if (supervisor.IMAP_HOST) console.log(`Ingesting mail from ${supervisor.IMAP_HOST}, watching for new mail`);
console.log('Press Ctrl+C to stop.\n');

async function stop() {
  if (stopping) return;
  stopping = true;
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
