// The docs a newcomer reads hold: a short README that links every page, links that lead somewhere,
// and settings tables that say what the processes accept (written from their schemas).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiReference, apiReferenceDoc } from '../src/api-reference.ts';
import { operationsDoc, withSettings } from '../src/settings-docs.ts';
import { dataModel, dataModelDoc, withTables } from '../src/data-model-docs.ts';
import { problemsIn } from '../src/check-text.ts';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));

describe('the docs', () => {
  it('start with a README under 12 KB that shows the two commands', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(12 * 1024);
    expect(readme).toContain('pnpm start');
    expect(readme).toContain('pnpm test');
  });

  it('are every one linked from the README', () => {
    expect(pages.length).toBeGreaterThanOrEqual(8);
    for (const page of pages) expect(readme, page).toContain(`](docs/${page})`);
  });

  it('link only to files that exist', () => {
    for (const file of ['README.md', ...pages.map((p) => `docs/${p}`)]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^https?:/.test(target!)) continue;
        expect(existsSync(resolve(dirname(join(root, file)), target!)), `${file} -> ${target}`).toBe(true);
      }
    }
  });

  it('list every setting as the processes’ schemas say (pnpm docs:write)', () => {
    const doc = readFileSync(operationsDoc, 'utf8');
    expect(withSettings(doc)).toBe(doc);
    expect(doc).toContain('| `LOGIN_MAX_FAILURES` | `10` | a whole number from 1 to 1000 |');
  });

  it('list every table of the schema by domain, with what it holds (pnpm docs:write)', () => {
    const doc = readFileSync(dataModelDoc, 'utf8');
    expect(withTables(doc)).toBe(doc);
    const tables = dataModel().flatMap((domain) => domain.tables.map((table) => table.name));
    // Every table drizzle-kit migrates is on the page (the page once missed five).
    const migrated = new Set(
      readdirSync(join(root, 'packages/db/migrations'))
        .filter((f) => f.endsWith('.sql'))
        .flatMap((f) =>
          [...readFileSync(join(root, 'packages/db/migrations', f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"([a-z_]+)"/gi)].map((m) => m[1]!),
        ),
    );
    const dropped = new Set(
      readdirSync(join(root, 'packages/db/migrations'))
        .filter((f) => f.endsWith('.sql'))
        .flatMap((f) =>
          [...readFileSync(join(root, 'packages/db/migrations', f), 'utf8').matchAll(/DROP TABLE (?:IF EXISTS )?"([a-z_]+)"/gi)].map((m) => m[1]!),
        ),
    );
    for (const table of migrated) if (!dropped.has(table)) expect(tables, table).toContain(table);
    for (const table of tables) expect(doc).toContain(`| \`${table}\` |`);
  });

  it('render the API reference from the OpenAPI document the API serves (pnpm docs:write)', async () => {
    const reference = await apiReference();
    expect(readFileSync(apiReferenceDoc, 'utf8')).toBe(reference);
    expect(reference).toContain('## POST `/api/auth/jwt/create/`');
  }, 60_000);
});

describe('the text rules of pnpm lint', () => {
  it('refuse an issue number and a document outside the repository, and pass plain reasons', () => {
    expect(problemsIn('a.ts', '// Roles (issue 15): an operator')).toHaveLength(1);
    expect(problemsIn('a.ts', '// see SPEC.md section 7')).toHaveLength(1);
    expect(problemsIn('a.md', 'config after ../shared/reference/dovecot.conf')).toHaveLength(1);
    expect(problemsIn('a.ts', '// Roles: an operator uses every screen but the admin lists')).toEqual([]);
  });
});
