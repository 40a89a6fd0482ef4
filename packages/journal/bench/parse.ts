// `pnpm --filter @ejdesk/journal bench`: parseJournal's speed (MB/s) and peak memory over a big
// journal of each family, streamed from disk in 64 KB chunks as the ingester and the API read them.
// The journals come from the independent generator (tools/journal-gen, `--size-mb`); without Python,
// from the test samples repeated. Each family runs in its own process so that its peak RSS is its own,
// beside a bare line split with one regular expression over the same file: on a shared machine that
// line says how much of the machine the run had.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJournal } from '../src/index.ts';

const sizeMb = Number(process.env.JOURNAL_BENCH_MB ?? 40);
const generator = join(import.meta.dirname, '../../../tools/journal-gen/ejgen.py');
const samples = join(import.meta.dirname, '../test/samples');

/** One big journal per family: `[family, file]`. */
function bigJournals(dir: string): [string, string][] {
  const run = spawnSync('python3', [generator, '--out', dir, '--seed', '1', '--family', 'all', '--size-mb', String(sizeMb)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status === 0) {
    const big = readdirSync(dir).filter((name) => name.startsWith('BIG_') && !name.endsWith('.jsonl'));
    const family = (name: string) => (name.endsWith('.txt') ? 'ncr' : name.endsWith('.jrn') ? 'diebold' : 'hyosung');
    return big.map((name) => [family(name), join(dir, name)]);
  }
  console.log('(no generator run: the test samples repeated)');
  return ['ncr', 'diebold', 'hyosung'].map((family) => {
    const one = readFileSync(join(samples, `${family}.txt`));
    const file = join(dir, `${family}.txt`);
    writeFileSync(file, Buffer.concat(Array.from({ length: Math.ceil((sizeMb * 2 ** 20) / one.length) }, () => one)));
    return [family, file];
  });
}

async function one(file: string): Promise<void> {
  const mb = statSync(file).size / 2 ** 20;
  // The bare split first (the file then comes from the page cache for both).
  let started = process.hrtime.bigint();
  let lines = 0;
  let rest = '';
  const probe = /^\s*(?:\[\d{2,3}[a-z])?\s*(?:\d\d:\d\d:\d\d\s+)?NOTES TAKEN/;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16, encoding: 'latin1' })) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) if (probe.test(line) || line) lines++;
  }
  const bare = Number(process.hrtime.bigint() - started) / 1e9;

  started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const parsed = await parseJournal(createReadStream(file, { highWaterMark: 1 << 16 }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    [
      (parsed?.family ?? 'none').padEnd(8),
      `${mb.toFixed(0)} MB`.padStart(6),
      `${parsed?.lineCount.toLocaleString('en')} lines`.padStart(17),
      `${parsed?.transactions.length.toLocaleString('en')} transactions`.padStart(20),
      `${seconds.toFixed(1)} s`.padStart(7),
      `${(mb / seconds).toFixed(1)} MB/s`.padStart(10),
      `(${(mb / ((cpu.user + cpu.system) / 1e6)).toFixed(1)} MB per CPU second)`.padStart(27),
      `peak RSS ${rss.toFixed(0)} MB`.padStart(17),
      `  bare split ${(mb / bare).toFixed(0)} MB/s (${lines.toLocaleString('en')} lines)`,
    ].join('  '),
  );
}

if (process.argv[2]) {
  await one(process.argv[2]);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-journal-bench-'));
  try {
    const journals = bigJournals(dir);
    console.log(
      `parseJournal over a journal of about ${sizeMb} MB per family, streamed in 64 KB chunks, one process each (its transactions kept, as parseJournal returns them):`,
    );
    for (const [, file] of journals) {
      const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, file], { stdio: 'inherit' });
      if (run.status !== 0) process.exit(run.status ?? 1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
