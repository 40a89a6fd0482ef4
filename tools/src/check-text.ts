// Part of `pnpm lint`: code, comments and docs say the reason itself. They cite no issue number and
// no file outside the repository (a reader of a clone has neither), so each such line is an error.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const checked = /\.(ts|tsx|js|mjs|css|md|sql|py|html|json|yaml|yml|conf|sh)$|(^|\/)(run|Makefile)$/;
const forbidden: [RegExp, string][] = [
  [/\bissues? #?\d+\b/i, 'cites an issue number: say the reason itself'],
  [/\b(SPEC|ARCHITECTURE)\.md\b/, 'cites a document outside the repository: describe it in docs/'],
  [/\.\.\/shared\b/, 'names a path outside the repository'],
];
/** Files that must quote the patterns to check them. */
const exempt = new Set(['tools/src/check-text.ts', 'tools/test/docs.test.ts', 'pnpm-lock.yaml']);

export function problemsIn(path: string, text: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [pattern, why] of forbidden) if (pattern.test(line)) problems.push(`${path}:${i + 1}: ${why}: ${line.trim().slice(0, 120)}`);
  });
  return problems;
}

export function problemsInTree(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n');
  return files
    .filter((f) => checked.test(f) && !exempt.has(f) && !f.includes('/migrations/meta/'))
    .flatMap((f) => {
      try {
        return problemsIn(f, readFileSync(join(root, f), 'utf8'));
      } catch {
        return []; // listed by git but deleted in the work tree
      }
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = problemsInTree();
  // The data model page is written from the schema: a table changed without `pnpm docs:write` fails lint.
  const { dataModelDoc, withTables } = await import('./data-model-docs.ts');
  const page = readFileSync(dataModelDoc, 'utf8');
  if (withTables(page) !== page) problems.push('docs/data-model.md: its tables differ from the schema; run pnpm docs:write');
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}
