// The test runner as its callers see it (`pnpm test`, CI): a misspelt folder fails the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Run test-all.ts (from `checkout`) with these arguments; its output and how it ended. */
function runner(args: string[], checkout = root): { child: ChildProcess; ended: Promise<{ code: number | null; output: string }> } {
  // tsx is found from the repository's root, wherever the script is.
  const child = spawn(process.execPath, ['--import', 'tsx', join(checkout, 'tools/src/test-all.ts'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  return { child, ended: new Promise((resolve) => child.on('close', (code) => resolve({ code, output }))) };
}

describe('tools/src/test-all.ts', { timeout: 60_000 }, () => {
  it('refuses folders with no suite, naming them, and runs none', async () => {
    const { code, output } = await runner(['apps/apii', 'packages/db', 'packages/nope/']).ended;
    expect(code).toBe(1);
    expect(output).toContain('No package suite in apps/apii, packages/nope.');
    expect(output).not.toContain('packages/db |');
  });
});
