// Every package's test suite, a few side by side (most of a suite's time is spent waiting on
// PostgreSQL, child processes and sockets, so two at once on two cores finish sooner than one after
// the other), each line prefixed with its package. At the end: each suite's time, slowest first,
// and which failed; the exit code is 1 when any did.
//
//   tsx tools/src/test-all.ts              every suite but the e2e specs
//   tsx tools/src/test-all.ts --changed    the suites of the packages a change touches, and of
//                                          the packages that depend on them (pnpm test:changed)
//   tsx tools/src/test-all.ts --all        pnpm test: lint and typecheck first (side by side), then every package's
//                                          suite with the e2e specs beside them
//   tsx tools/src/test-all.ts apps/api packages/db    those packages' suites
//   --jobs N                               suites at once (2 by default, TEST_JOBS)
//
// With --all a failed lint or typecheck stops the run (as it stops CI). A folder named that has no suite fails the run before any
// starts. SIGINT (Ctrl+C) or SIGTERM ends every suite running, with all it started (vitest's
// workers, the e2e specs' `pnpm start`), then the run: exit 130 or 143.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Workspace {
  name: string;
  dir: string;
  /** Its @ejdesk dependencies, by name. */
  uses: string[];
  hasTests: boolean;
}

function workspaces(): Workspace[] {
  const dirs = ['apps', 'packages'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name))).concat(['tools', 'e2e']);
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        scripts?: Record<string, string>;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const uses = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((d) => d.startsWith('@ejdesk/'));
      return { name: manifest.name, dir, uses, hasTests: Boolean(manifest.scripts?.test) };
    });
}

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    .split('\n')
    .filter(Boolean);

/** Files changed in the working tree (untracked too) and in the commits not on origin/main (else the last commit). */
function changedFiles(): string[] {
  let base: string;
  try {
    base = git('merge-base', 'HEAD', 'origin/main')[0]!;
  } catch {
    base = 'HEAD~1';
  }
  return [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])];
}

/** The workspaces a change touches, and every workspace that depends on one of them. */
function touched(all: Workspace[], files: string[]): Set<string> {
  const selected = new Set<string>();
  for (const file of files) {
    const owner = all.find((w) => file.startsWith(`${w.dir}/`));
    if (owner) selected.add(owner.name);
    // The docs are checked by the tools' tests; the root's settings (lockfile, TypeScript, lint,
    // build) reach every package, so a change there runs everything.
    else if (file.startsWith('docs/') || file.endsWith('.md')) selected.add('@ejdesk/tools');
    else all.forEach((w) => selected.add(w.name));
  }
  for (let grown = true; grown;) {
    grown = false;
    for (const w of all) {
      if (!selected.has(w.name) && w.uses.some((u) => selected.has(u))) {
        selected.add(w.name);
        grown = true;
      }
    }
  }
  return selected;
}

interface Outcome {
  workspace: Pick<Workspace, 'dir'>;
  seconds: number;
  code: number;
  /** Vitest's own count line ("Tests  12 passed (12)"), when it printed one. */
  tests: string;
}

/** The suites running now, by their folder. */
const running = new Map<ChildProcess, string>();
/** Set once the run is being stopped: no suite starts after it. */
let stopping: NodeJS.Signals | undefined;
/** How long the suites have to end after the signal is passed on, before they are killed. */
const graceMs = 10_000;

interface Process {
  pid: number;
  parent: number;
  /** ps's state: Z for a zombie (ended, not yet reaped). */
  state: string;
  /** When it started: with the pid, which process it is (a pid is reused once its process ends). */
  started: string;
}

/** The machine's processes now (by `ps`, so on Linux and macOS alike). */
function processes(): Process[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat=,lstart='], { encoding: 'utf8' });
  return table.split('\n').flatMap((line) => {
    const [, pid, parent, state, started] = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.+)$/.exec(line) ?? [];
    return pid ? [{ pid: Number(pid), parent: Number(parent), state: state!, started: started! }] : [];
  });
}

/** Every process below `pid`. */
function descendants(table: Process[], pid: number): Process[] {
  const found: Process[] = [];
  for (let parents = [pid]; parents.length;) {
    const next = table.filter((p) => parents.includes(p.parent));
    found.push(...next);
    parents = next.map((p) => p.pid);
  }
  return found;
}

/** Those of `these` still running. */
function stillRunning(these: Process[]): Process[] {
  const now = processes();
  return these.filter((p) => now.some((q) => q.pid === p.pid && q.started === p.started && !q.state.startsWith('Z')));
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // Ended already.
  }
};

/**
 * Pass the signal to every suite running (each its own process group) and to every process they
 * started (a server Playwright starts has a group of its own, and outlives a Playwright that ends
 * first), wait until all have ended (killed after `graceMs`), then exit as a process ended by the
 * signal does.
 */
async function stop(received: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = received;
  const suites = [...running];
  console.log(`\n${received}: ending ${suites.map(([, dir]) => dir).join(', ') || 'no suite'} and all they started`);
  const table = processes();
  const started = suites.flatMap(([child]) => descendants(table, child.pid!));
  for (const [child] of suites) signal(-child.pid!, received);
  for (const p of started) signal(p.pid, received);
  const killAt = Date.now() + graceMs;
  for (let left = stillRunning(started); running.size || left.length; left = stillRunning(started)) {
    if (Date.now() > killAt + graceMs) {
      console.error(`Still running after SIGKILL: ${left.map((p) => p.pid).join(', ')}`);
      break;
    }
    if (Date.now() > killAt) {
      for (const [child] of suites) signal(-child.pid!, 'SIGKILL');
      for (const p of left) signal(p.pid, 'SIGKILL');
    }
    await new Promise((wait) => setTimeout(wait, 200));
  }
  process.exit(received === 'SIGINT' ? 130 : 143);
}

/** Run one suite (or a step of the root's: `pnpm run <script>`), its lines prefixed with its directory. */
function runSuite(workspace: Pick<Workspace, 'dir'>, width: number, script = 'test', cwd = join(root, workspace.dir)): Promise<Outcome> {
  // Stopping: nothing more starts, and the run ends once the running suites have.
  if (stopping) return new Promise(() => undefined);
  const started = performance.now();
  const prefix = `${workspace.dir.padEnd(width)} | `;
  let tests = '';
  return new Promise((resolve) => {
    // A process group of its own, so that a signal reaches all the suite started.
    const child = spawn('pnpm', ['run', '--silent', script], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    running.set(child, workspace.dir);
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines.map((l) => stripVTControlCharacters(l))) {
          // Vitest's count ("Tests  3 failed | 40 passed (43)"), or Playwright's ("  40 passed (9.1m)").
          if (/^\s*Tests\s+\d/.test(line)) tests = line.trim().replace(/^Tests\s+/, '');
          else if (/^\s+\d+ (passed|failed|flaky|skipped)\b/.test(line)) tests = [tests, line.trim()].filter(Boolean).join(', ');
          process.stdout.write(prefix + line + '\n');
        }
      });
      stream.on('end', () => partial && process.stdout.write(prefix + partial + '\n'));
    }
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ workspace, seconds: (performance.now() - started) / 1000, code: code ?? (signal ? 1 : 0), tests });
    });
  });
}

// The suites known to take longest start first, so that the short ones fill in beside them.
const slowFirst = ['@ejdesk/api', '@ejdesk/ingest', '@ejdesk/db', '@ejdesk/mailbox', '@ejdesk/edge'];

/** Run the queue's suites, `jobs` at a time, into `outcomes`. */
async function runAll(queue: Workspace[], jobs: number, width: number, outcomes: Outcome[]): Promise<void> {
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) outcomes.push(await runSuite(next, width));
    }),
  );
}

function report(outcomes: Outcome[], jobs: number, started: number, width: number): void {
  // Stopped by a signal: the suites ended by it did not fail, and stop() says which they were.
  if (stopping) return;
  const failed = outcomes.filter((o) => o.code !== 0);
  console.log(`\nEach suite's time, slowest first (package suites ${jobs} at a time; ${((performance.now() - started) / 1000).toFixed(0)} s in all):`);
  for (const o of [...outcomes].sort((a, b) => b.seconds - a.seconds)) {
    console.log(`  ${o.code === 0 ? 'ok  ' : 'FAIL'} ${o.seconds.toFixed(1).padStart(7)} s  ${o.workspace.dir.padEnd(width)}  ${o.tests}`);
  }
  if (failed.length) {
    console.log(`\nFailed: ${failed.map((o) => o.workspace.dir).join(', ')} (their lines above, prefixed with the folder)`);
    process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const jobsArg = args.indexOf('--jobs');
  const jobs = Math.max(1, Math.floor(Number(jobsArg >= 0 ? args[jobsArg + 1] : process.env.TEST_JOBS || 2)) || 1);
  const all = workspaces();
  let suites = all.filter((w) => w.hasTests && w.name !== '@ejdesk/e2e');
  const named = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--jobs').map((a) => a.replace(/^\.\//, '').replace(/\/$/, ''));
  // A misspelt folder would otherwise run nothing and pass.
  const unknown = named.filter((dir) => !suites.some((w) => w.dir === dir));
  if (unknown.length) {
    console.error(`No package suite in ${unknown.join(', ')}. The folders with one: ${suites.map((w) => w.dir).join(', ')}`);
    if (unknown.includes('e2e')) console.error('The e2e specs run with --all, or alone: pnpm --filter @ejdesk/e2e test');
    process.exitCode = 1;
    return;
  }
  if (args.includes('--changed')) {
    const files = changedFiles();
    const selected = touched(all, files);
    suites = suites.filter((w) => selected.has(w.name));
    console.log(`${files.length} changed files: the suites of ${suites.map((w) => w.dir).join(', ') || 'no package'}`);
    if (selected.has('@ejdesk/e2e')) console.log('The e2e specs are touched too: pnpm --filter @ejdesk/e2e test');
  }
  if (named.length) suites = suites.filter((w) => named.includes(w.dir));
  const whole = args.includes('--all');
  const rank = (w: Workspace) => (slowFirst.includes(w.name) ? slowFirst.indexOf(w.name) : slowFirst.length);
  const queue = [...suites].sort((a, b) => rank(a) - rank(b));
  const width = Math.max('typecheck'.length, ...suites.map((w) => w.dir.length));
  const outcomes: Outcome[] = [];
  const started = performance.now();
  // Lint and typecheck first, side by side (each keeps about one core busy), and a failure in
  // either fails the run before any suite starts.
  if (whole) {
    const checks = await Promise.all(['lint', 'typecheck'].map((step) => runSuite({ dir: step }, width, step, root)));
    outcomes.push(...checks);
    if (checks.some((outcome) => outcome.code !== 0)) return report(outcomes, jobs, started, width);
  }
  // The e2e specs keep about one core busy (370 s alone here for 387 core-seconds), one spec at a
  // time: they run beside the package suites, in a lane of their own.
  const e2e = all.find((w) => w.name === '@ejdesk/e2e');
  const browser = whole && e2e ? runSuite(e2e, width) : undefined;
  await runAll(queue, jobs, width, outcomes);
  if (browser) outcomes.push(await browser);
  report(outcomes, jobs, started, width);
}

for (const received of ['SIGINT', 'SIGTERM'] as const) process.on(received, () => void stop(received));
await main();
