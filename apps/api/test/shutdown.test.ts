// Graceful shutdown, as an operator's deployment sends it: SIGTERM while a request is in flight.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const cwd = new URL('..', import.meta.url).pathname;

it('finishes the request in flight on SIGTERM, then exits cleanly', async () => {
  const env = { ...process.env, EJDESK_DATA_DIR: mkdtempSync(join(tmpdir(), 'ejdesk-shutdown-')), API_PORT: String(18_000 + Math.floor(Math.random() * 1000)), LOG_LEVEL: 'error', DATABASE_URL: '' };
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/user-create.ts', '--email', 'ops@bank.example'], {
    cwd,
    env: { ...env, EJDESK_PASSWORD: 'a long enough password' },
  });
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd, env, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
  const base = `http://127.0.0.1:${env.API_PORT}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health/`)).ok) break;
    } catch {
      if (i > 200) throw new Error('the API did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // A login takes an argon2 verification: long enough to be in flight when the signal lands.
  const login = fetch(`${base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ops@bank.example', password: 'a long enough password' }),
  });
  await new Promise((r) => setTimeout(r, 25));
  server.kill('SIGTERM');
  const response = await login;
  expect(response.status).toBe(200);
  expect(await response.json()).toHaveProperty('access');
  expect(await exited).toBe(0);
}, 60_000);
