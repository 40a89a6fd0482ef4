// `pnpm start`: build what is stale, migrate (and on the embedded database seed the demo data and
// operator), start the API, the shell and the four remotes, then print the URL and the demo login.
// Ports: SHELL_PORT (3000), EMAIL_REMOTE_PORT..ADMIN_REMOTE_PORT (3001-3004), API_PORT (8000).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { defaultPorts, descriptorFile, remoteNames, type RegistryEntry } from '../rsbuild.shared.ts';
import { serveRemote, serveShell } from './serve.ts';

const root = resolve(import.meta.dirname, '..');
// Child processes run in their own folders: hand them an absolute data folder.
if (process.env.EJDESK_DATA_DIR) process.env.EJDESK_DATA_DIR = resolve(process.env.EJDESK_DATA_DIR);
const host = process.env.HOST ?? '127.0.0.1';
const publicHost = process.env.PUBLIC_HOST ?? 'localhost';
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const apiPort = port('API_PORT', 8000);
const shellPort = port('SHELL_PORT', defaultPorts.shell);
const remotePorts = Object.fromEntries(remoteNames.map((n) => [n, port(`${n.toUpperCase()}_REMOTE_PORT`, defaultPorts[n])]));
const apps = [{ name: 'shell', dir: 'apps/shell' }, ...remoteNames.map((n) => ({ name: n, dir: `apps/${n}-remote` }))];
const sharedInputs = ['packages/ui/src', 'packages/api-client/src', 'packages/export/src', 'rsbuild.shared.ts', 'pnpm-lock.yaml'];

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

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
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
if (!process.env.DATABASE_URL) run('pnpm', ['--filter', '@ejdesk/api', '--silent', 'prepare:demo']);

// 3. The API, then the static servers.
const shellOrigin = `http://${publicHost}:${shellPort}`;
// The mail ingester runs inside the API process (the embedded database can be opened by one process
// only): it watches the mailbox in IMAP_* when set, and processes an admin's Reprocess at once.
const ingest = { EJDESK_HOSTED_WORKER: join(root, 'apps/ingest/src/hosted.ts') };
// The shell's proxy proves itself to the API with this secret; only then is its X-Forwarded-For believed.
const proxySecret = randomBytes(24).toString('hex');
// Where operators (and the supervision test) find the running API's process id.
const pidFile = join(resolve(process.env.EJDESK_DATA_DIR || join(root, '.data')), 'api.pid');
let stopping = false;
let api: ChildProcess;

/**
 * The API runs supervised: if it dies, it is started again (1 s, doubling to 30 s while it keeps
 * dying quickly) and the shell and the remotes keep serving meanwhile (the shell answers /api
 * with 503 until it is back).
 */
function startApi(backoff = 1_000): void {
  const startedAt = Date.now();
  api = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: join(root, 'apps/api'),
    stdio: 'inherit',
    env: {
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: shellOrigin,
      ...process.env,
      ...ingest,
      EJDESK_PROXY_SECRET: proxySecret,
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
    },
  });
  mkdirSync(dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, `${api.pid}\n`);
  api.on('exit', (code, signal) => {
    if (stopping) return;
    const delay = Date.now() - startedAt > 60_000 ? 1_000 : backoff;
    console.error(`${new Date().toISOString()} The API stopped (${signal ?? `exit ${code}`}); restarting it in ${delay / 1000} s.`);
    setTimeout(() => !stopping && startApi(Math.min(delay * 2, 30_000)), delay);
  });
}
startApi();
// Whatever ends this process, the API must not outlive it.
process.on('exit', () => api.kill('SIGTERM'));
const apiUrl = `http://127.0.0.1:${apiPort}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${apiUrl}/api/health/`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 300) throw new Error('The API did not start within 30 seconds');
  await new Promise((r) => setTimeout(r, 100));
}

const servers: FastifyInstance[] = [];
for (const name of remoteNames) servers.push(await serveRemote(join(root, `apps/${name}-remote/dist`), remotePorts[name]!, host));
// remotes.json: each remote's descriptor as its build wrote it, read per request, so a rebuilt
// remote's new screens show at the next page load.
const remotes = async (): Promise<RegistryEntry[]> => {
  const entries = await Promise.all(
    remoteNames.map(async (n) => {
      try {
        const descriptor = JSON.parse(await readFile(join(root, `apps/${n}-remote/dist`, descriptorFile), 'utf8')) as RegistryEntry;
        return { ...descriptor, manifest: `http://${publicHost}:${remotePorts[n]}/mf-manifest.json` };
      } catch {
        return null; // no build of it: its screens are not offered
      }
    }),
  );
  return entries.filter((e): e is RegistryEntry => e !== null);
};
servers.push(await serveShell({ root: join(root, 'apps/shell/dist'), port: shellPort, host, apiUrl, remotes, proxySecret }));

console.log(`\nEJ Desk is running at ${shellOrigin}`);
if (!process.env.DATABASE_URL) console.log('Demo logins: operator@example.com / ejdesk-demo (operator), admin@example.com / ejdesk-admin (admin)');
if (process.env.IMAP_HOST) console.log(`Ingesting mail from ${process.env.IMAP_HOST} (IMAP_MAILBOX ${process.env.IMAP_MAILBOX || 'INBOX'}), watching for new mail`);
console.log('Press Ctrl+C to stop.\n');

async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled(servers.map((s) => s.close()));
  if (api.exitCode !== null || api.signalCode !== null) process.exit(0);
  api.once('exit', () => process.exit(0));
  api.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
