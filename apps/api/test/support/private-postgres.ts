// A PostgreSQL cluster of the test's own, in a temporary folder on a free port, that the test may
// stop, start and break at will: fault tests never touch the machine's shared server.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const runAsync = promisify(execFile);

/** Debian's server binaries (initdb, pg_ctl), newest version first; undefined when not installed. */
export const postgresBin = (() => {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : undefined;
})();

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PrivatePostgres {
  url: string;
  port: number;
  start(): void;
  /**
   * A fast shutdown: sessions are ended, in-flight transactions rolled back. Asynchronous, so the
   * test's clients keep sending while it happens (their requests are in flight when it comes).
   */
  stop(): Promise<void>;
  /**
   * `pg_ctl restart -m fast`: the server process itself goes down (every session ended, in-flight
   * transactions rolled back) and comes up again; asynchronous, as stop.
   */
  restart(): Promise<void>;
  /** Run SQL on the cluster's postgres database with psql. */
  psql(sql: string): string;
  destroy(): void;
}

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  if (!postgresBin) throw new Error('PostgreSQL server binaries are not installed (apt-get install postgresql)');
  const root = mkdtempSync(join(tmpdir(), 'ejdesk-pg-'));
  const data = join(root, 'data');
  const port = await freePort();
  // initdb refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : undefined;
  const gid = asRoot ? Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) : undefined;
  if (asRoot) chownSync(root, uid!, gid!);
  const argv = (command: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(postgresBin, command), ...args]] : [join(postgresBin, command), args];
  const run = (command: string, args: string[]) => execFileSync(...argv(command, args), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c shared_buffers=32MB`;
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => void run('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start']),
    async stop() {
      await runAsync(...argv('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']), { cwd: root });
    },
    async restart() {
      await runAsync(...argv('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'server.log'), '-m', 'fast', '-w', '-t', '60', 'restart']), { cwd: root });
    },
    psql: (sql) =>
      execFileSync(join(postgresBin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-At', '-c', sql]).toString(),
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  return cluster;
}
