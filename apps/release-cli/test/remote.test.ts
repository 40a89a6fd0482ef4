// `pnpm remote` refuses what it cannot do with a clear reason and exit code 1, and touches nothing:
// a name that is no remote, an unknown command, a folder with no build, an unusable version, and an
// API that does not answer (the copy it had published is removed again).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '@ejdesk/http/testing';

const root = resolve(import.meta.dirname, '../../..');
const data = mkdtempSync(join(tmpdir(), 'remote-cli-'));
// Nothing listens on these ports: no API, no shell, no remote server.
const env = { ...process.env, EJDESK_DATA_DIR: data, API_PORT: '9', SHELL_PORT: '9', ADMIN_REMOTE_PORT: '9', REMOTE_DEPLOY_TOKEN: 'x' };

async function remote(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/release-cli/src/remote.ts', ...args], { cwd: root, env });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** A folder shaped like a remote's build (what deploy reads before it asks anyone). */
function fakeBuild(version: string): string {
  const dist = mkdtempSync(join(tmpdir(), 'remote-dist-'));
  writeFileSync(join(dist, 'mf-manifest.json'), JSON.stringify({ name: 'admin', exposes: [{ path: './routes' }], shared: [] }));
  writeFileSync(join(dist, 'ejdesk-remote.json'), JSON.stringify({ name: 'admin', version, section: 'admin', paths: [], nav: [] }));
  return dist;
}

describe('pnpm remote', () => {
  it.each([
    [['deploy', 'billing'], /Refused: 'billing' is not a remote/],
    [['rollback'], /Refused: which remote\?/],
    [['publish', 'admin'], /Refused: pnpm remote deploy <name>/],
    [['deploy', 'admin', '--canary', '100'], /--canary takes a share of the operators from 1 to 99 \(percent\), not '100'/],
    [['deploy', 'admin', '--canary', 'ten'], /--canary takes a share of the operators from 1 to 99/],
    [['prune', 'admin', '--keep=-1'], /--keep takes how many of the newest releases to keep \(0 or more\), not '-1'/],
    [['prune', 'admin', '--keep', '-1'], /Refused: Option '--keep' argument is ambiguous/],
    [['prune', 'admin', '--kept', '3'], /Refused: Unknown option '--kept'[^]*pnpm remote prune <name> --keep N/],
    [['prune', 'admin', '--keep', 'all'], /--keep takes how many of the newest releases to keep \(0 or more\), not 'all'/],
    [['prune', 'admin'], /--keep takes how many of the newest releases to keep \(0 or more\), not ''/],
    [['deploy', 'admin', '--dist', join(tmpdir(), 'no-such-build')], /holds no build \(no mf-manifest.json\): build it first/],
    [['deploy', 'admin', '--dist', fakeBuild('1.0.0'), '--version', '../../etc'], /the version '..\/..\/etc' is not usable/],
    [['deploy', 'admin', '--manifest', 'http://127.0.0.1:9/mf-manifest.json'], /admin's manifest could not be read at http:\/\/127.0.0.1:9\/mf-manifest.json/],
    [['rollback', 'admin'], /the API at http:\/\/127.0.0.1:9 does not answer: is EJ Desk running\?/],
    [['withdraw', 'admin'], /which version of admin\? pnpm remote withdraw admin <version>/],
    [['withdraw', 'admin', '../1'], /which version of admin\?/],
    [['withdraw', 'admin', '1.0.0'], /the API at http:\/\/127.0.0.1:9 does not answer/],
  ])('%j is refused, saying why', async (args, reason) => {
    const { code, out } = await remote(...args);
    expect(code).toBe(1);
    expect(out).toMatch(reason);
  });

  it('a deploy that cannot be checked removes the copy it published', async () => {
    const { code, out } = await remote('deploy', 'admin', '--dist', fakeBuild('2.0.0'));
    expect(code).toBe(1);
    expect(out).toMatch(/could not be read at http:\/\/localhost:9\/2.0.0\/mf-manifest.json/);
    const published = join(data, 'remotes', 'admin');
    expect(existsSync(published) ? readdirSync(published) : []).toEqual([]);
  });

  it("serve runs the edge's static server of the remote's releases until it is told to stop", async () => {
    const port = await freePort();
    const server = spawn(process.execPath, ['--import', 'tsx', 'apps/release-cli/src/remote.ts', 'serve', 'admin'], {
      cwd: root,
      env: { ...env, ADMIN_REMOTE_PORT: String(port) },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((done) => server.on('exit', done));
    for (let i = 0; ; i++) {
      const answer = await fetch(`http://127.0.0.1:${port}/mf-stats.json`).catch(() => undefined);
      if (answer) {
        expect(answer.status).toBe(404);
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        break;
      }
      if (i > 150) throw new Error('the remote server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
