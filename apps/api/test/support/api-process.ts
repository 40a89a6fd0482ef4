// The API as operators run it: `src/server.ts` in a child process of its own, spoken to over HTTP.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '@ejdesk/db';
import { seed } from '@ejdesk/db/seed';
import { throwawayDatabase } from '../helpers.ts';
import { freePort } from './private-postgres.ts';

const cwd = new URL('../..', import.meta.url).pathname;

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  env: NodeJS.ProcessEnv;
  /** What the process printed so far (for a failing assertion's message). */
  output(): string;
  exited: Promise<number | null>;
  /**
   * Wait until GET path answers the status (polling every 100 ms), for as long as the process runs:
   * by default up to 3 minutes, since a process compiles the API's source as it starts, which takes
   * that long on a machine busy with other suites.
   */
  waitFor(path: string, status: number, timeoutMs?: number): Promise<void>;
  createUser(email: string, password: string, role?: 'operator' | 'admin'): Promise<void>;
  stop(): Promise<void>;
}

/** Create an operator with the CLI (on the embedded database, before the API opens it). */
async function createUserCli(env: NodeJS.ProcessEnv, email: string, password: string, role: 'operator' | 'admin' = 'operator'): Promise<void> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/user-create.ts', '--email', email, '--role', role], {
    cwd,
    env: { ...env, EJDESK_PASSWORD: password },
  });
}

export async function startApiProcess(extraEnv: NodeJS.ProcessEnv = {}, users: { email: string; password: string }[] = []): Promise<ApiProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EJDESK_DATA_DIR: mkdtempSync(join(tmpdir(), 'ejdesk-api-')),
    API_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    JWT_SECRET: randomBytes(32).toString('hex'),
    BANK_PASS_KEY: randomBytes(32).toString('hex'),
    ...extraEnv,
  };
  for (const user of users) await createUserCli(env, user.email, user.password);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${env.API_PORT}`;
  const api: ApiProcess = {
    base,
    child,
    env,
    output: () => output,
    exited,
    async waitFor(path, status, timeoutMs = 180_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        try {
          if ((await fetch(base + path)).status === status) return;
        } catch {
          // not listening yet
        }
        if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}):\n${output}`);
        if (Date.now() > until) throw new Error(`${path} did not answer ${status} within ${timeoutMs} ms:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    createUser: (email, password, role) => createUserCli(env, email, password, role),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return api;
}

export async function loginOver(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access: string }).access;
}

/**
 * An API process on a throwaway PostgreSQL database seeded with `ej` EJ records, with `operator`
 * signed in: its token and the number of dispute records.
 */
export async function startSeededApiProcess(
  ej: number,
  operator: { email: string; password: string },
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ api: ApiProcess; token: string; disputes: number; url: string; drop(): Promise<void> }> {
  const scratch = await throwawayDatabase();
  const database = await openDatabase({ url: scratch.url });
  await database.migrate();
  await seed(database.db, { emails: 200, ej, filesPerKind: 0 });
  await database.db.execute(sql`analyze`);
  const [{ n: disputes }] = (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ej_records where kind = 'dispute'`)) as [
    { n: number },
  ];
  await database.close();
  const api = await startApiProcess({ DATABASE_URL: scratch.url, ...extraEnv }, [operator]);
  await api.waitFor('/api/ready', 200);
  return { api, token: await loginOver(api.base, operator.email, operator.password), disputes, url: scratch.url, drop: scratch.drop };
}

/** `pnpm edge` as a process of its own in front of `apiUrl`, serving a stand-in build of the shell. */
export async function startEdgeProcess(apiUrl: string): Promise<{ base: string; port: number; child: ChildProcess }> {
  const dist = mkdtempSync(join(tmpdir(), 'ejdesk-shell-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>EJ Desk</title><div id="root"></div>');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/edge.ts'], {
    cwd: new URL('../../../edge', import.meta.url).pathname,
    stdio: 'ignore',
    env: { ...process.env, SHELL_DIST: dist, SHELL_PORT: String(port), API_URL: apiUrl },
  });
  const base = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    !(await fetch(`${base}/login`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 150 || child.exitCode !== null) throw new Error('the edge did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, port, child };
}
