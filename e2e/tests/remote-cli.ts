// `pnpm remote` as a remote's team runs it, against the `pnpm start` the e2e run tests.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { appEnv } from '../playwright.config.ts';

/** The repository the tested product runs from. */
export const repo = resolve(import.meta.dirname, '../..');

/** `pnpm remote ...`: its exit code and what it printed. */
export async function remote(...args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('pnpm', ['--silent', 'remote', ...args], { cwd: repo, env: { ...process.env, ...appEnv } });
    return { ok: true, out: stdout + stderr };
  } catch (err) {
    const failed = err as { stdout: string; stderr: string };
    return { ok: false, out: failed.stdout + failed.stderr };
  }
}
