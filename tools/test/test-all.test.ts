// The test runner as its callers see it (`pnpm test`, CI, an operator's Ctrl+C): a misspelt folder
// fails the run, and a signal ends every suite running, with all it started, before the run ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

/** Whether the process runs (a zombie, ended but not reaped by a container's init, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return existsSync(`/proc/${pid}/stat`) ? !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')) : true;
}

describe('tools/src/test-all.ts', { timeout: 60_000 }, () => {
  it('refuses folders with no suite, naming them, and runs none', async () => {
    const { code, output } = await runner(['apps/apii', 'packages/db', 'packages/nope/']).ended;
    expect(code).toBe(1);
    expect(output).toContain('No package suite in apps/apii, packages/nope.');
    expect(output).not.toContain('packages/db |');
  });

  describe('stopped by a signal', () => {
    // A copy of the runner in a checkout of one package, whose suite starts a server in a process
    // group of its own (as Playwright starts `pnpm start`) and sleeps.
    let checkout: string;
    beforeAll(() => {
      checkout = mkdtempSync(join(tmpdir(), 'ejdesk-test-all-'));
      mkdirSync(join(checkout, 'tools/src'), { recursive: true });
      mkdirSync(join(checkout, 'packages'));
      mkdirSync(join(checkout, 'apps/sleepy'), { recursive: true });
      writeFileSync(join(checkout, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
      copyFileSync(join(root, 'tools/src/test-all.ts'), join(checkout, 'tools/src/test-all.ts'));
      writeFileSync(
        join(checkout, 'apps/sleepy/package.json'),
        JSON.stringify({ name: '@fixture/sleepy', private: true, scripts: { test: 'node sleepy.mjs' } }),
      );
      writeFileSync(
        join(checkout, 'apps/sleepy/sleepy.mjs'),
        [
          "import { spawn } from 'node:child_process';",
          "import { writeFileSync } from 'node:fs';",
          "const server = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 120000)'], { detached: true, stdio: 'ignore' });",
          "writeFileSync('pids.json', JSON.stringify({ suite: process.pid, server: server.pid }));",
          "console.log('sleeping');",
          'setTimeout(() => undefined, 120000);',
        ].join('\n'),
      );
    });
    afterAll(() => rmSync(checkout, { recursive: true, force: true }));

    it.each([
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const)('%s ends the suite and what it started, then the run (exit %i)', async (signal, exitCode) => {
      const pidsFile = join(checkout, 'apps/sleepy/pids.json');
      rmSync(pidsFile, { force: true });
      const { child, ended } = runner(['apps/sleepy'], checkout);
      while (!existsSync(pidsFile) && child.exitCode === null) await sleep(100);
      await sleep(200);
      const pids = JSON.parse(readFileSync(pidsFile, 'utf8')) as { suite: number; server: number };
      expect(alive(pids.suite) && alive(pids.server)).toBe(true);
      child.kill(signal);
      const { code, output } = await ended;
      expect(code).toBe(exitCode);
      expect(output).toContain(`${signal}: ending apps/sleepy and all they started`);
      expect(alive(pids.suite)).toBe(false);
      expect(alive(pids.server)).toBe(false);
    });
  });
});
