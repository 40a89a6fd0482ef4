// Vitest's global setup for suites on migrated databases: the PGlite and PostgreSQL templates made
// once, before the workers start (each then copies them; see template.ts).
import { prepareTemplates } from './template.ts';

export default async function setup(): Promise<void> {
  const started = performance.now();
  await prepareTemplates(process.env.TEST_DATABASE_URL);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`database templates ready in ${seconds} s${process.env.TEST_DATABASE_URL ? ' (PGlite and PostgreSQL)' : ' (PGlite)'}`);
}
