// The dependency rules are lint errors: ESLint with the workspace's own config refuses each
// forbidden import at the place it would stand, and lets the allowed ones through.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { allowed, forbidden } from './fixtures/forbidden-imports.ts';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const lint = async (path: string, code: string) => (await eslint.lintText(code, { filePath: join(root, path) }))[0]!.messages;

// The first lint loads the whole config and its plugins: seconds on a busy machine.
describe('pnpm lint', { timeout: 60_000 }, () => {
  it.each(forbidden)('refuses $path importing what $rule forbids', async ({ path, code, rule }) => {
    const messages = await lint(path, code);
    expect(messages.map((m) => m.ruleId)).toContain(rule);
    expect(messages.every((m) => m.severity === 2)).toBe(true);
  });

  it.each(allowed)('lets $path import what it may', async ({ path, code }) => {
    expect(await lint(path, code)).toEqual([]);
  });
});
