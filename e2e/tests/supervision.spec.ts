// `pnpm start` supervises the API: killed outright, it is started again while the shell and the
// remotes keep serving (the shell answering /api with a 503 detail meanwhile).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { demo, expect, test } from './fixtures.ts';

const pidFile = resolve(import.meta.dirname, '../.artifacts/data/run/api.pid');

test('a killed API is restarted while the shell keeps serving', async ({ page, request }) => {
  test.setTimeout(90_000);
  const before = Number(readFileSync(pidFile, 'utf8'));
  process.kill(before, 'SIGKILL');

  // The shell still serves the app, and answers for the missing API in the API's own shape.
  const down = await request.get('/api/health');
  expect(down.status()).toBe(503);
  expect(await down.json()).toEqual({ detail: 'The API is unavailable; try again.' });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  // Back by itself, as a new process.
  await expect.poll(async () => (await request.get('/api/ready')).status(), { timeout: 60_000, intervals: [250] }).toBe(200);
  expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(before);
  expect((await request.post('/api/auth/jwt/create/', { data: demo })).status()).toBe(200);
});
