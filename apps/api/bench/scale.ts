// The cost of growing tenfold: the EJ table's filter shapes at 1,000,000 and at 10,000,000 EJ
// records, each in a database of its own (seeded once, the time it took printed), by
// bench/ej-records.ts in a process of its own; then each shape's p95 side by side.
import { spawnSync } from 'node:child_process';

const sizes = [1_000_000, 10_000_000];
const p95s = new Map<string, number[]>();
for (const size of sizes) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', new URL('./ej-records.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_DATABASE_NAME: `ejdesk_bench_${size / 1_000_000}m`,
      BENCH_EJ: String(size),
      BENCH_ONLY: 'shapes',
      BENCH_RACE_SECONDS: '0',
      BENCH_RUNS: process.env.BENCH_RUNS ?? '50',
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = child.stdout.toString();
  process.stdout.write(output);
  if (child.status !== 0) throw new Error(`bench/ej-records.ts at ${size} records failed (${child.status})`);
  // Each table line: the shape's name, then HTTP p50, HTTP p95, DB p50, DB p95.
  for (const line of output.split('\n')) {
    const m = /^(.{50}) +[\d.]+ +([\d.]+) +[\d.]+ +[\d.]+$/.exec(line);
    if (m) p95s.set(m[1]!.trim(), [...(p95s.get(m[1]!.trim()) ?? []), Number(m[2])]);
  }
}
console.log(`\nHTTP p95 (ms) at ${sizes.map((n) => n.toLocaleString('en')).join(' and ')} EJ records\n`);
console.log(`${'request'.padEnd(50)} ${'1M'.padStart(8)} ${'10M'.padStart(8)} ${'ratio'.padStart(6)}`);
for (const [name, [small, large]] of p95s) {
  if (small === undefined || large === undefined) continue;
  console.log(`${name.padEnd(50)} ${small.toFixed(1).padStart(8)} ${large.toFixed(1).padStart(8)} ${(large / small).toFixed(1).padStart(6)}`);
}
