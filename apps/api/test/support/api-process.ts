// The API as operators run it: `src/server.ts` in a child process of its own, spoken to over HTTP.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './private-postgres.ts';

const cwd = new URL('../..', import.meta.url).pathname;

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  env: NodeJS.ProcessEnv;
  /** What the process printed so far (for a failing assertion's message). */
  output(): string;
  exited: Promise<number | null>;
  /** Wait until GET path answers the status (polling every 100 ms). */
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
    async waitFor(path, status, timeoutMs = 60_000) {
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
