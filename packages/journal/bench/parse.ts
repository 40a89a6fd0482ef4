// `pnpm --filter @ejdesk/journal bench`: parseJournal's speed (MB/s) and peak memory over a big
// journal of each family, streamed from disk in 64 KB chunks as the ingester and the API read them.
// Each family runs in its own process so that its peak RSS is its own.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJournal } from '../src/index.ts';

const sizeMb = Number(process.env.JOURNAL_BENCH_MB ?? 100);
const samples = join(import.meta.dirname, '../test/samples');

/** A journal of about `mb` MB: the family's sample journal over and over (a day's journal is ~200 KB). */
function bigJournal(family: string, mb: number, dir: string): string {
  const one = readFileSync(join(samples, `${family}.txt`));
  const copies = Math.ceil((mb * 2 ** 20) / one.length);
  const file = join(dir, `${family}.txt`);
  writeFileSync(file, Buffer.concat(Array.from({ length: copies }, () => one)));
  return file;
}

async function one(file: string): Promise<void> {
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const parsed = await parseJournal(createReadStream(file, { highWaterMark: 1 << 16 }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const mb = statSync(file).size / 2 ** 20;
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    [
      (parsed?.family ?? 'none').padEnd(8),
      `${mb.toFixed(0)} MB`.padStart(7),
      `${parsed?.lineCount.toLocaleString('en')} lines`.padStart(17),
      `${parsed?.transactions.length.toLocaleString('en')} transactions`.padStart(21),
      `${seconds.toFixed(2)} s`.padStart(8),
      `${(mb / seconds).toFixed(1)} MB/s`.padStart(11),
      `(${(mb / cpuSeconds).toFixed(1)} MB per CPU second)`.padStart(27),
      `peak RSS ${rss.toFixed(0)} MB`.padStart(17),
    ].join('  '),
  );
}

if (process.argv[2]) {
  await one(process.argv[2]);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-journal-bench-'));
  try {
    console.log(
      `parseJournal over a ${sizeMb} MB journal per family, streamed in 64 KB chunks, one process each (its transactions kept, as parseJournal returns them):`,
    );
    for (const family of ['ncr', 'diebold', 'hyosung']) {
      const file = bigJournal(family, sizeMb, dir);
      const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, file], { stdio: 'inherit' });
      if (run.status !== 0) process.exit(run.status ?? 1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
