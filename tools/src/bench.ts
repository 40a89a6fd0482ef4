// `pnpm bench`: runs each package's benchmark, shows its output as it goes, and writes what it
// printed into docs/benchmarks.md with the date and the machine, so the figures there are always a
// run's own, never copied by hand. `pnpm bench api` runs one.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const doc = join(root, 'docs/benchmarks.md');

/** Each benchmark: its package, its script there (`bench` unless named) and what it measures. */
export const benches = {
  api: {
    filter: '@ejdesk/api',
    about: 'The lists and exports over real HTTP at a million emails and a million EJ records, beside the same query run directly.',
  },
  ingest: {
    filter: '@ejdesk/ingest',
    about: 'The mail ingester: 10,000 generated messages through a real Dovecot and from an mbox, then a few very large messages.',
  },
  scale: {
    filter: '@ejdesk/api',
    script: 'bench:scale',
    about:
      'Every list shape at 10,000,000 EJ records and journal transactions beside 1,000,000 (each database generated in SQL), with the time each seed took.',
  },
  'scale-cluster': {
    filter: '@ejdesk/ingest',
    script: 'bench:cluster:scale',
    about:
      'Requests per second on every list shape at 10,000,000 EJ records (the database pnpm bench scale made), through nginx to one and to two API instances, 16 connections.',
  },
  disputes: {
    filter: '@ejdesk/api',
    script: 'bench:disputes',
    about: 'The dispute desk at a million EJ records: each turnaround quick filter and clock order, alone and with other filters, and the ageing card.',
  },
  cluster: {
    filter: '@ejdesk/ingest',
    script: 'bench:cluster',
    about: 'Several processes: requests per second through nginx to one and to two API instances, and ingest with one and two workers.',
  },
  evidence: {
    filter: '@ejdesk/api',
    script: 'bench:journals',
    about:
      'Journal evidence at 10,000,000 journal transactions: matching a dispute, the Journals list with each filter, a dispute’s page with its excerpt, and the verdict filter on the EJ table.',
  },
  journals: {
    filter: '@ejdesk/journal',
    about: 'parseJournal over a 40 MB journal of each family, streamed from disk: MB/s and peak RSS per process.',
  },
  'journal-zip': {
    filter: '@ejdesk/ingest',
    script: 'bench:zip',
    about: 'A 500 MB ZIP of journals read as the ingester reads an archive (one entry inflated at a time) and each journal parsed: MB/s and peak RSS.',
  },
  budgets: {
    filter: '@ejdesk/e2e',
    about: 'What the browser downloads before the login form and before the dashboard is usable, from Chromium’s network log.',
  },
} as const satisfies Record<string, { filter: string; script?: string; about: string }>;
type Name = keyof typeof benches;

const machine = () => `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const marker = (name: string) => [`<!-- bench ${name} -->`, `<!-- bench ${name} end -->`] as const;

/** docs/benchmarks.md with one benchmark's section replaced by a run's output. */
export function withSection(text: string, name: Name, output: string, when: Date, on: string): string {
  const [begin, end] = marker(name);
  // The servers a benchmark starts speak too (Playwright's [WebServer] lines): only its figures are kept.
  const figures = output
    .split('\n')
    .filter((line) => !line.startsWith('[WebServer]'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const section = [begin, `Run ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${on}:`, '', '```', figures, '```', end].join('\n');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/benchmarks.md has no section for ${name}`);
  return text.slice(0, from) + section + text.slice(to + end.length);
}

function run(name: Name): Promise<{ code: number; output: string }> {
  const bench: { filter: string; script?: string } = benches[name];
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['--filter', bench.filter, '--silent', bench.script ?? 'bench'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2) as Name[];
  const unknown = asked.filter((n) => !(n in benches));
  if (unknown.length) {
    console.error(`No benchmark named ${unknown.join(', ')}; there are: ${Object.keys(benches).join(', ')}.`);
    process.exit(2);
  }
  let failed = false;
  for (const name of asked.length ? asked : (Object.keys(benches) as Name[])) {
    const { code, output } = await run(name);
    if (code !== 0) {
      console.error(`The ${name} benchmark failed (exit ${code}); docs/benchmarks.md keeps its last figures.`);
      failed = true;
      continue;
    }
    writeFileSync(doc, withSection(readFileSync(doc, 'utf8'), name, output, new Date(), machine()));
  }
  process.exit(failed ? 1 : 0);
}
