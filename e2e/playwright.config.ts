// End-to-end tests of the composed production build (`pnpm start`) in Debian's Chromium, on ports of
// their own and a fresh embedded database, so a running demo is never touched.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { appLog, caFile, mailbox, signInProvider } from './support/mailbox.ts';

export const ports = { shell: 3100, email: 3101, ej: 3102, files: 3103, admin: 3104, api: 8100 };
export const baseURL = `http://localhost:${ports.shell}`;
// The sign-in provider registers the console's redirect URIs from its own copy of the address.
if (signInProvider.consoleOrigin !== baseURL) throw new Error(`support/mailbox.ts's consoleOrigin must be ${baseURL}`);
const dataDir = resolve(import.meta.dirname, '.artifacts/data');
/** Where the tested `pnpm start` keeps its data and listens: `pnpm remote` in a test needs the same. */
export const appEnv = {
  EJDESK_DATA_DIR: dataDir,
  SHELL_PORT: String(ports.shell),
  EMAIL_REMOTE_PORT: String(ports.email),
  EJ_REMOTE_PORT: String(ports.ej),
  FILES_REMOTE_PORT: String(ports.files),
  ADMIN_REMOTE_PORT: String(ports.admin),
  API_PORT: String(ports.api),
};

// Chromium's headless shell (Debian's chromium-headless-shell, what Playwright runs headless by
// default) renders with Blink as the browser does, with a quarter less CPU per spec than the whole
// browser run headless; the whole browser where the shell is not installed.
const chromium = existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './.artifacts/results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // CI's machine may be busier than a developer's (the package suites run beside the specs): a slow
  // answer there is not what a spec judges, so each waits twice as long.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: process.env.CI ? 20_000 : 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  // The mailbox first (started in order): the API watches it from its start.
  webServer: [
    {
      command: 'node --import tsx support/mailbox-server.ts',
      url: `http://127.0.0.1:${mailbox.controlPort}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 3_000 },
    },
    {
      // Its output is kept too: the Mailboxes spec checks that no secret reached it.
      command: `rm -rf '${dataDir}' && pnpm --dir .. start 2>&1 | tee '${appLog}'`,
      url: `${baseURL}/remotes.json`,
      timeout: 240_000,
      reuseExistingServer: false,
      // All of it goes to the log file (info: every request and the ingester's lines), not the console.
      stdout: 'ignore',
      env: {
        LOG_LEVEL: 'info',
        ...appEnv,
        EJDESK_DEMO_EMAILS: '1500',
        // Over 10,000 dispute records: one status change of "all N matching" covers 10,000 disputes (the disputes spec).
        EJDESK_DEMO_EJ: '13000',
        DATABASE_URL: '',
        IMAP_HOST: '127.0.0.1',
        IMAP_PORT: String(mailbox.imapPort),
        IMAP_USER: mailbox.user,
        IMAP_PASSWORD: mailbox.password,
        IMAP_TLS: 'false',
        // The run's mailbox and OAuth2 provider listen on loopback, which the Mailboxes screen may
        // add and test only when allowed (the mailboxes spec).
        MAILBOX_ALLOWED_NETWORKS: '127.0.0.0/8',
        // A sync every 2 s even without IDLE's word, and a stall after 10 s (the mail-flow spec).
        INGEST_POLL_SECONDS: '2',
        INGEST_STALLED_AFTER_SECONDS: '10',
        // A canary that one admin could not load rolls back (the releases spec).
        CANARY_ROLLBACK_FAILURES: '1',
        // The OAuth2 provider's certificate is signed by the run's own CA (support/mailbox-server.ts).
        NODE_EXTRA_CA_CERTS: caFile,
        // Single sign-on at the run's OpenID provider (the sso spec).
        OIDC_ISSUER: `https://127.0.0.1:${signInProvider.port}`,
        OIDC_CLIENT_ID: signInProvider.clientId,
        OIDC_CLIENT_SECRET: signInProvider.clientSecret,
        OIDC_SCOPES: 'openid profile email groups',
        OIDC_DISPLAY_NAME: signInProvider.displayName,
        OIDC_ADMIN_VALUES: signInProvider.admins,
        OIDC_OPERATOR_VALUES: signInProvider.operators,
      },
    },
  ],
});
