// Each of the API's processes reads its settings once as it starts: a malformed or missing value
// stops it with exit 1 and one line naming the variable, before it touches a database or a port.
import { describe, expect, it } from 'vitest';
import { startProcess } from '@ejdesk/settings/testing';

const apiDir = new URL('..', import.meta.url).pathname;

describe('a process started with a bad setting', () => {
  it.each([
    ['src/server.ts', { LOGIN_MAX_FAILURES: '0' }, 'LOGIN_MAX_FAILURES is "0", which is not accepted; it accepts a whole number from 1 to 1000.'],
    ['src/server.ts', { API_PORT: 'abc' }, 'API_PORT is "abc", which is not accepted; it accepts a whole number from 1 to 65535.'],
    ['src/server.ts', { JOURNAL_UPLOAD_MAX_MB: '0' }, 'JOURNAL_UPLOAD_MAX_MB is "0", which is not accepted; it accepts a whole number from 1 to 1024.'],
    ['src/server.ts', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL is "loud", which is not accepted; it accepts one of: trace, debug, info, warn, error, fatal, silent.'],
    ['src/server.ts', { DATABASE_URL: 'postgres://127.0.0.1:1/x' }, 'JWT_SECRET is not set; it is required when DATABASE_URL is set.'],
    [
      'src/server.ts',
      { DATABASE_URL: 'postgres://127.0.0.1:1/x', JWT_SECRET: 'x'.repeat(40) },
      'BANK_PASS_KEY is not set; it is required when DATABASE_URL is set.',
    ],
    ['src/server.ts', { DATABASE_URL: 'mysql://127.0.0.1/x' }, 'DATABASE_URL is "mysql://127.0.0.1/x", which is not accepted; it accepts a postgres:// URL.'],
    // The mail ingester hosted in the API process checks its own settings before the API listens.
    ['src/server.ts', { EJDESK_HOSTED_WORKER: `${apiDir}../ingest/src/hosted.ts`, INGEST_LANES: 'abc' }, 'INGEST_LANES is "abc", which is not accepted'],
    ['src/cli/migrate.ts', { DB_STATEMENT_TIMEOUT_MS: '10 s' }, 'DB_STATEMENT_TIMEOUT_MS is "10 s", which is not accepted'],
    ['src/cli/seed.ts', { EXPORT_CONCURRENCY: '-1' }, 'EXPORT_CONCURRENCY is "-1", which is not accepted'],
    ['src/cli/prepare-demo.ts', { EJDESK_DEMO_EMAILS: 'many' }, 'EJDESK_DEMO_EMAILS is "many", which is not accepted'],
    [
      'src/cli/user-create.ts',
      { CORS_ORIGINS: ' ', BANK_PASS_KEY: 'short' },
      'BANK_PASS_KEY is set to a value that is not accepted; it accepts a key of 32 bytes as 64 hex characters or base64; while rotating, several, comma-separated: the first seals, each opens.',
    ],
  ])('%s with %j exits 1 naming it', async (script, env, line) => {
    const { code, stderr } = await startProcess(apiDir, script, env, script.includes('user-create') ? ['--email', 'x@bank.example'] : []);
    expect(code).toBe(1);
    expect(stderr).toContain(line);
    // One line, and a secret's value is never repeated.
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toContain('short');
  });
});
