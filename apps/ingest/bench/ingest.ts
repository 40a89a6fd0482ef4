// `pnpm bench` (ingest): messages per second for a 10,000-message mailbox of mixed attachments,
// over IMAP (a real Dovecot) and from an mbox file, each into a fresh PostgreSQL database, with
// the ingester's peak memory; then a mailbox of ten 40 MB month-end messages over IMAP, for the
// peak memory; then a folder of electronic journals (tools/journal-gen), for the time per journal.
// The ingester runs as `pnpm ingest` would (its own process).
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server;
// BENCH_MESSAGES the mailbox size, BENCH_BIG_MESSAGES the big mailbox's; BENCH_ONLY=big or
// BENCH_ONLY=journals runs that part alone.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { bigCorpus, bulkCorpus, toMbox } from '../test/support/corpus.ts';
import { freshDatabase } from './databases.ts';
import { startDovecot } from '@ejdesk/mailbox/testing';

const count = Number(process.env.BENCH_MESSAGES ?? 10_000);
const key = randomBytes(32);

function ingest(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, ...env, BANK_PASS_KEY: key.toString('hex'), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`ingest exited ${code}:\n${output}`))));
  });
}

const figures = (output: string) => {
  const time = /Time: ([\d.]+) s \((\d+) messages\/s processed\), peak memory (\d+) MB/.exec(output);
  const seen = /Messages seen: (\d+), stored: (\d+)/.exec(output);
  return `${seen?.[1]} messages (${seen?.[2]} stored) in ${time?.[1]} s = ${time?.[2]} messages/s, peak memory ${time?.[3]} MB`;
};

const imapEnv = (dovecot: Awaited<ReturnType<typeof startDovecot>>) => ({
  IMAP_HOST: dovecot.host,
  IMAP_PORT: String(dovecot.port),
  IMAP_USER: dovecot.user,
  IMAP_PASSWORD: dovecot.password,
  IMAP_TLS: 'false',
});

const only = process.env.BENCH_ONLY;
if (!only) {
  console.log(`Generating ${count} messages...`);
  let started = performance.now();
  const messages = await bulkCorpus(count);
  const bytes = messages.reduce((n, m) => n + m.length, 0);
  console.log(`  ${(bytes / 1024 / 1024).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const dovecot = await startDovecot();
  const folder = mkdtempSync(join(tmpdir(), 'ejdesk-bench-'));
  try {
    started = performance.now();
    await dovecot.append(messages);
    console.log(`  appended to Dovecot in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const imapUrl = await freshDatabase('ejdesk_bench_ingest_imap', key);
    const imap = await ingest(['--imap'], { DATABASE_URL: imapUrl, ...imapEnv(dovecot) });
    console.log(`IMAP sync: ${figures(imap)}`);

    const mboxPath = join(folder, 'bench.mbox');
    writeFileSync(mboxPath, toMbox(messages));
    const mboxUrl = await freshDatabase('ejdesk_bench_ingest_mbox', key);
    const mbox = await ingest(['--from', mboxPath], { DATABASE_URL: mboxUrl });
    console.log(`mbox import: ${figures(mbox)}`);
    console.log(
      imap
        .split('\n')
        .filter((l) => /^(Categories|Rows)/.test(l))
        .join('\n'),
    );
  } finally {
    await dovecot.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

// Month-end extracts: the peak memory of one ingester process while several 40 MB messages wait.
if (!only || only === 'big') {
  const bigCount = Number(process.env.BENCH_BIG_MESSAGES ?? 10);
  const big = await bigCorpus(bigCount);
  const bigDovecot = await startDovecot();
  try {
    await bigDovecot.append(big);
    const bigUrl = await freshDatabase('ejdesk_bench_ingest_big', key);
    const output = await ingest(['--imap'], { DATABASE_URL: bigUrl, ...imapEnv(bigDovecot) });
    const size = (big.reduce((n, m) => n + m.length, 0) / bigCount / 1024 / 1024).toFixed(0);
    console.log(`${bigCount} messages of ${size} MB over IMAP: ${figures(output)}`);
  } finally {
    await bigDovecot.stop();
  }
}

// Journals: a day's journal for each of 20 ATMs of each family (the generator's, about 100 KB each),
// and a ZIP of some of them again, from a folder: each parsed, stored and matched in its own transaction.
if (!only || only === 'journals') {
  const folder = mkdtempSync(join(tmpdir(), 'ejdesk-bench-journals-'));
  try {
    const ejgen = new URL('../../../tools/journal-gen/ejgen.py', import.meta.url).pathname;
    execFileSync('/usr/bin/python3', [ejgen, '--out', folder, '--seed', '5', '--atms', '20', '--zip'], { stdio: 'ignore' });
    rmSync(join(folder, 'manifest.json'));
    const megabytes = readdirSync(folder).reduce((n, f) => n + statSync(join(folder, f)).size, 0) / 1024 / 1024;
    const url = await freshDatabase('ejdesk_bench_ingest_journals', key);
    const output = await ingest(['--from', folder], { DATABASE_URL: url });
    const journals = /Journals received: (\d+), new: (\d+)/.exec(output);
    const time = /Time: ([\d.]+) s .*peak memory (\d+) MB/.exec(output);
    const seconds = Number(time?.[1]);
    const received = Number(journals?.[1]);
    console.log(
      `${received} journals (${journals?.[2]} new; ${megabytes.toFixed(1)} MB with the ZIP) from a folder: ${seconds} s, ` +
        `${((seconds * 1000) / received).toFixed(0)} ms a journal (process start included), peak memory ${time?.[2]} MB`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
