// `pnpm docs:write`: the generated parts of docs/. The settings tables of docs/operations.md, from
// each process's own schema (what a deployer reads is what the processes accept), and the API
// reference from the OpenAPI document. A test fails when the docs and the code disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingsTable } from '@ejdesk/settings';
import { apiReference, apiReferenceDoc } from './api-reference.ts';
import { dataModelDoc, withTables } from './data-model-docs.ts';
import { apiSettings, backupSettings, demoSettings, userCreateSettings } from '../../apps/api/src/config.ts';
import { edgeSettings } from '../../apps/edge/src/config.ts';
import { releaseSettings } from '../../apps/release-cli/src/config.ts';
import { supervisorSettings } from '../../apps/supervisor/src/config.ts';
import { buildSettings } from '../../rsbuild.shared.ts';
import { ingestSettings } from '../../apps/ingest/src/config.ts';

export const operationsDoc = join(import.meta.dirname, '../../docs/operations.md');
const begin = "<!-- settings: written by `pnpm docs:write` from the processes' schemas; edit those, not this -->";
const end = '<!-- settings end -->';

const only = <T extends object>(all: T, base: object) => Object.fromEntries(Object.entries(all).filter(([k]) => !(k in base))) as T;

/** The settings section: one table per process. */
export function settingsSection(): string {
  return [
    begin,
    '',
    '### The API (`pnpm --filter @ejdesk/api start`, and under `pnpm start`)',
    '',
    settingsTable(apiSettings),
    '',
    'Its CLIs (`migrate`, `seed`, `user:create`, `prepare:demo`, `pnpm backup`, `pnpm restore`, `pnpm rekey`) read the same, and:',
    '',
    settingsTable({ ...only(demoSettings, apiSettings), ...only(userCreateSettings, apiSettings), ...only(backupSettings, apiSettings) }),
    '',
    '### The mail ingester (`pnpm ingest`, and hosted in the API process under `pnpm start`)',
    '',
    settingsTable(ingestSettings),
    '',
    '### The supervisor (`pnpm start`, `pnpm dev`)',
    '',
    settingsTable(supervisorSettings),
    '',
    "### The edge (`pnpm edge`, and each remote's static server under `pnpm start` or `pnpm remote serve`)",
    '',
    settingsTable(edgeSettings),
    '',
    '### The release CLI (`pnpm remote`)',
    '',
    settingsTable(releaseSettings),
    '',
    '### The builds (`pnpm build`, and the dev servers of `pnpm dev`)',
    '',
    settingsTable(buildSettings),
    '',
    end,
  ].join('\n');
}

/** docs/operations.md with its settings section as the schemas say. */
export function withSettings(doc: string): string {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/operations.md has no settings section (${begin} ... ${end})`);
  return doc.slice(0, from) + settingsSection() + doc.slice(to + end.length);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(operationsDoc, withSettings(readFileSync(operationsDoc, 'utf8')));
  console.log('docs/operations.md: settings written from the schemas');
  writeFileSync(dataModelDoc, withTables(readFileSync(dataModelDoc, 'utf8')));
  console.log('docs/data-model.md: tables written from the schema');
  writeFileSync(apiReferenceDoc, await apiReference());
  console.log('docs/api-reference.md: written from GET /api/openapi.json');
}
