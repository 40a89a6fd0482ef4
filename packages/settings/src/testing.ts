// For each process's settings test: start it as an operator would, with only PATH and the given
// variables, and see how it ended (a refused setting is exit 1 and one line on stderr).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export async function startProcess(cwd: string, script: string, env: Record<string, string>, args: string[] = []): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}
