// Test apps on a real database: in-memory PGlite, or a throwaway database on the PostgreSQL server
// named by TEST_DATABASE_URL (CI always sets it, so those suites never skip there).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createUser, type Database } from '@ejdesk/db';
import { migratedDatabase, throwawayDatabase as emptyDatabase } from '@ejdesk/db/testing';
import { buildApp } from '../src/app.ts';
import { loadConfig, type ApiConfig } from '../src/config.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import type { Secrets } from '../src/lib/secrets.ts';
import type { RelyingPartyOptions } from '../src/lib/sso.ts';

type Backend = 'pglite' | 'postgres';
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;
export const backends: Backend[] = testDatabaseUrl ? ['pglite', 'postgres'] : ['pglite'];

/** How long a test app's query may wait for a pooled connection. */
export const testPoolWaitMs = 60_000;

export const operator = { email: 'operator@example.com', password: 'correct horse battery' };
/** The admin lists need an admin. */
export const admin = { email: 'admin@example.com', password: 'battery staple horse' };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  secrets: Secrets;
  config: ApiConfig;
  close(): Promise<void>;
}

/** A new, empty database on the test server (to migrate in the test), and how to drop it. */
export const throwawayDatabase = () => emptyDatabase(testDatabaseUrl!);

export async function createTestApp(backend: Backend, overrides: Partial<ApiConfig> = {}, options: { sso?: RelyingPartyOptions } = {}): Promise<TestApp> {
  // A copy of the migrated template (see @ejdesk/db/testing): seconds less than migrating per suite.
  // A burst of a thousand requests queues on the pool of 4: on a loaded machine (suites side by
  // side) the last ones may wait past the API's 5 s, which is not what the tests judge.
  const scratch = await migratedDatabase(backend === 'postgres' ? testDatabaseUrl : undefined, { poolSize: 4, connectTimeoutMs: testPoolWaitMs });
  const { database } = scratch;
  await createUser(database.db, operator.email, await hashPassword(operator.password));
  await createUser(database.db, admin.email, await hashPassword(admin.password), 'admin');
  const config = { ...loadConfig({}), databaseUrl: scratch.url, ...overrides };
  const secrets: Secrets = { jwtSecret: randomBytes(32).toString('hex'), bankPassKey: randomBytes(32) };
  const app = await buildApp({ database, config, secrets, ...options });
  return {
    app,
    database,
    secrets,
    config,
    async close() {
      await app.close();
      await scratch.drop();
    },
  };
}

export async function login(app: FastifyInstance, credentials = operator): Promise<{ access: string; refresh: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: credentials });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** One more operator of the test's app, signed in: the `Authorization` header of their session. */
export async function anotherOperator(t: TestApp, email: string): Promise<string> {
  const credentials = { email, password: `the password of ${email}` };
  await createUser(t.database.db, credentials.email, await hashPassword(credentials.password));
  return `JWT ${(await login(t.app, credentials)).access}`;
}

/** A multipart/form-data body as the original client sends it. */
export function multipart(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  const boundary = '----ejdesk' + randomBytes(8).toString('hex');
  const payload =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const decodeClaims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

// The API as a process of its own, and Debian's nginx in front of such processes.
export { startApiProcess, startEdgeProcess, type ApiProcess } from './support/api-process.ts';
export { nginxInstalled, startNginx } from './support/nginx.ts';
