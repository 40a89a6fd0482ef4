// One streamed export of every dispute record over real HTTP, in a process of its own (run by
// ej-records.ts): rows per second, bytes, and this process's peak RSS above its idle RSS (VmHWM
// against VmRSS once the API is up and warm). The client only counts the bytes it reads.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { queryRows } from '@ejdesk/db';
import { openBench } from './harness.ts';

const format = process.argv[2] === 'xlsx' ? 'xlsx' : 'csv';
const memory = (field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

const bench = await openBench('ej_records', 0, () => ({}));
const [{ n: rows } = { n: 0 }] = await queryRows<{ n: number }>(bench.database.db, sql`select count(*)::int as n from ej_records where kind = 'dispute'`);
const exportUrl = (filter: string) => `${bench.base}/api/scrape/extract/export/?kind=dispute&format=${format}${filter}`;
// Warm up (modules, connections) with a small export, then take the idle figure.
await (await fetch(exportUrl('&atm_id=HRB00123'), { headers: bench.headers })).arrayBuffer();
const idle = memory('VmRSS');

const started = performance.now();
const response = await fetch(exportUrl(''), { headers: bench.headers });
let bytes = 0;
const reader = response.body!.getReader();
for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.length;
const seconds = (performance.now() - started) / 1000;
console.log(
  `${format.toUpperCase().padEnd(5)} ${rows.toLocaleString('en')} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds).toLocaleString('en')} rows/s, ` +
    `${(bytes / 1e6).toFixed(1)} MB, peak RSS +${((memory('VmHWM') - idle) / 1e6).toFixed(0)} MB above idle`,
);
await bench.close();
