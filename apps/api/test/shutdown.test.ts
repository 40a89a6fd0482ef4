// Graceful shutdown, as an operator's deployment sends it: SIGTERM while a request is in flight.
import { expect, it } from 'vitest';
import { startApiProcess } from './support/api-process.ts';

it('finishes the request in flight on SIGTERM, then exits cleanly', async () => {
  const api = await startApiProcess({ LOG_LEVEL: 'error' }, [{ email: 'ops@bank.example', password: 'a long enough password' }]);
  await api.waitFor('/api/ready', 200);
  // A login takes an argon2 verification: long enough to be in flight when the signal lands.
  const login = fetch(`${api.base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ops@bank.example', password: 'a long enough password' }),
  });
  await new Promise((r) => setTimeout(r, 25));
  api.child.kill('SIGTERM');
  const response = await login;
  expect(response.status).toBe(200);
  expect(await response.json()).toHaveProperty('access');
  expect(await api.exited).toBe(0);
}, 240_000);
