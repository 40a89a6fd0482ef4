import { describe, expect, it } from 'vitest';
import { flag, integer, list, oneOf, readSettings, settingsTable, text } from '../src/index.ts';

const schema = {
  LOGIN_MAX_FAILURES: integer({ minimum: 1, maximum: 1000, default: 10, description: 'Failed logins allowed.' }),
  IMAP_AUTH: oneOf(['password', 'oauth2-client-credentials'], { default: 'password', description: 'How to sign in.' }),
  CORS_ORIGINS: list({ default: ['http://localhost:3000'], description: 'Origins.' }),
  TRUST_PROXY: flag({ default: false, description: 'Believe X-Forwarded-For.' }),
  JWT_SECRET: text({ secret: true, description: 'Signs tokens.' }),
  DATABASE_URL: text({ pattern: '^postgres(ql)?://', accepts: 'a postgres:// URL', description: 'The database.' }),
};

describe('settings read from the environment', () => {
  it('gives defaults for what is unset or blank, and converts what is set', () => {
    expect(readSettings(schema, { LOGIN_MAX_FAILURES: ' ', TRUST_PROXY: '1', CORS_ORIGINS: 'https://a.example, https://b.example' })).toEqual({
      LOGIN_MAX_FAILURES: 10,
      IMAP_AUTH: 'password',
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      TRUST_PROXY: true,
      JWT_SECRET: undefined,
      DATABASE_URL: undefined,
    });
  });

  it.each([
    ['LOGIN_MAX_FAILURES', '0', 'LOGIN_MAX_FAILURES is "0", which is not accepted; it accepts a whole number from 1 to 1000.'],
    ['LOGIN_MAX_FAILURES', 'abc', 'LOGIN_MAX_FAILURES is "abc", which is not accepted; it accepts a whole number from 1 to 1000.'],
    ['LOGIN_MAX_FAILURES', '1.5', 'LOGIN_MAX_FAILURES is "1.5", which is not accepted; it accepts a whole number from 1 to 1000.'],
    ['IMAP_AUTH', 'oauth', 'IMAP_AUTH is "oauth", which is not accepted; it accepts one of: password, oauth2-client-credentials.'],
    ['TRUST_PROXY', 'yes', 'TRUST_PROXY is "yes", which is not accepted; it accepts true or false.'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL is "mysql://x", which is not accepted; it accepts a postgres:// URL.'],
  ])('refuses %s=%s naming the variable, the value and what it accepts', (name, value, message) => {
    expect(() => readSettings(schema, { [name]: value })).toThrow(message);
  });

  it('never repeats a secret in its refusal', () => {
    const secretive = { KEY: text({ secret: true, pattern: '^[0-9a-f]{64}$', accepts: '64 hex characters', description: 'A key.' }) };
    expect(() => readSettings(secretive, { KEY: 'hunter2' })).toThrow('KEY is set to a value that is not accepted; it accepts 64 hex characters.');
  });

  it('refuses to go on without a required value', () => {
    const needed = { DATABASE_URL: text({ required: true, description: 'The database.' }) };
    expect(() => readSettings(needed, {})).toThrow('DATABASE_URL is not set; it is required: The database.');
  });

  it('writes one table row per variable with its default and what it accepts', () => {
    const table = settingsTable(schema).split('\n');
    expect(table).toHaveLength(2 + Object.keys(schema).length);
    expect(table).toContain('| `LOGIN_MAX_FAILURES` | `10` | a whole number from 1 to 1000 | Failed logins allowed. |');
    expect(table).toContain('| `CORS_ORIGINS` | `http://localhost:3000` | a comma-separated list | Origins. |');
    expect(table).toContain('| `JWT_SECRET` |  | text | Signs tokens. |');
  });
});
