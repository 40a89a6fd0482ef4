// Test files other projects made (installed from npm for them alone), or that other projects'
// writers make.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** node-tnef's own TNEF test files (winmail.dat as Outlook writes it, and broken ones). */
export const thirdPartyTnef = (name: string) => join(dirname(createRequire(import.meta.url).resolve('node-tnef/package.json')), 'testFiles', name);

/**
 * A winmail.dat written by KDE's KTNEF (fixtures/make_tnef.cpp, built here with g++ against
 * Debian's libkf5tnef-dev): its body carries COUNT dispute rows of PREFIX, tab separated.
 */
export function ktnefWinmail(prefix: string, count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-ktnef-'));
  const source = new URL('../fixtures/make_tnef.cpp', import.meta.url).pathname;
  const program = join(dir, 'make_tnef');
  const file = join(dir, 'winmail.dat');
  try {
    const flags = (args: string) => execFileSync('pkg-config', args.split(' '), { encoding: 'utf8' }).trim().split(/\s+/);
    execFileSync(
      'g++',
      ['-std=c++17', '-fPIC', '-o', program, source, ...flags('--cflags Qt5Core'), '-I/usr/include/KF5/KTNEF', ...flags('--libs Qt5Core'), '-lKF5Tnef'],
      {
        stdio: 'pipe',
      },
    );
    execFileSync(program, [file, prefix, String(count)], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(
      `make_tnef could not be built or run (apt-get install g++ pkg-config libkf5tnef-dev): ${String((error as { stderr?: Buffer }).stderr ?? error)}`,
    );
  }
  return file;
}
