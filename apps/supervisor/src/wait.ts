// Waiting for a supervised process to serve: as long as it is alive, however busy the machine, saying
// what it is doing when that changes (and every so often while it does not), and failing at once
// when the process exits, rather than after a fixed time.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Ready, or what the process is doing meanwhile, in the operator's words. */
export type Progress = { ready: true } | { ready: false; doing: string };

interface Waited {
  /** Its name as a sentence begins it: "The API". */
  what: string;
  child: ChildProcess;
  /** Asks the process (its readiness endpoint, its page) where it is. */
  progress: () => Promise<Progress>;
  say?: (line: string) => void;
  pollMs?: number;
  /** How often an unchanged state is said again, with the time waited. */
  remindMs?: number;
  /** Where it listens: named when it stops before it is ready and another process holds it. */
  port?: Port;
}

/** A port a server of this run listens on, and the setting that chooses it. */
export interface Port {
  port: number;
  host: string;
  setting: string;
}

export class StoppedBeforeReady extends Error {}

let probing = Promise.resolve(false);

/**
 * Whether another process listens on the port now (binding it for a moment is refused). One probe
 * at a time: two at once would find each other.
 */
export function portTaken({ port, host }: Pick<Port, 'port' | 'host'>): Promise<boolean> {
  const probe = () =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
      server.listen({ port, host }, () => server.close(() => resolve(false)));
    });
  probing = probing.then(probe, probe);
  return probing;
}

/** What to tell the operator of a port another process holds. */
export const takenPort = ({ port, setting }: Port) => `port ${port} is taken by another process; stop it, or set ${setting} to a free port.`;

/** Why a process stopped before (or right after) it was ready: its port taken, else its own messages. */
export async function stoppedSaying(what: string, how: string, port?: Port, when = 'before it was ready'): Promise<string> {
  if (port && (await portTaken(port))) return `${what} stopped (${how}) ${when}: ${takenPort(port)}`;
  return `${what} stopped (${how}) ${when}; its own messages above say why.`;
}

const exitOf = (child: ChildProcess) => (child.signalCode ? child.signalCode : child.exitCode !== null ? `exit ${child.exitCode}` : undefined);

export async function waitUntilServing({ what, child, progress, say = console.log, pollMs = 200, remindMs = 15_000, port }: Waited): Promise<void> {
  const started = Date.now();
  let said = '';
  let saidAt = started;
  const stopped = new Promise<string>((resolve) => {
    const ended = exitOf(child);
    if (ended) return resolve(ended);
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
  });
  // Said once, whichever wait hears it first.
  const refused = stopped.then(async (how) => new StoppedBeforeReady(await stoppedSaying(what, how, port)));
  for (;;) {
    const state = await Promise.race([progress(), refused]);
    if (state instanceof StoppedBeforeReady) throw state;
    if (state.ready) return;
    const seconds = Math.round((Date.now() - started) / 1000);
    if (state.doing !== said) {
      say(`${what}: ${state.doing}...`);
      [said, saidAt] = [state.doing, Date.now()];
    } else if (Date.now() - saidAt >= remindMs) {
      say(`${what}: still ${state.doing} (${seconds} s so far; waiting as long as it runs).`);
      saidAt = Date.now();
    }
    const ended = await Promise.race([sleep(pollMs).then(() => undefined), stopped]);
    if (ended) throw await refused;
  }
}

const answer = (url: string, timeoutMs = 3_000) => fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
const notListening = { ready: false, doing: 'starting (not listening yet)' } as const;

/**
 * The API's progress from its own endpoints: not listening yet (starting), listening but silent
 * (a connection taken, no answer in time: busy starting), listening but not ready (/api/health
 * answers, /api/ready not: its database is being reached or migrated), or ready.
 */
export async function apiProgress(apiUrl: string, timeoutMs?: number): Promise<Progress> {
  try {
    if ((await answer(`${apiUrl}/api/ready/`, timeoutMs)).ok) return { ready: true };
    return { ready: false, doing: 'listening, waiting for its database to answer and be migrated' };
  } catch (err) {
    if (err instanceof DOMException && err.name === 'TimeoutError') return { ready: false, doing: 'listening but not answering yet' };
    return notListening;
  }
}

/** Children that said they listen: `process.send({ listening: port })` once their server is bound. */
const saidListening = new WeakSet<ChildProcess>();

/**
 * Hears a child (spawned with an IPC channel) say it listens. Called as it is spawned: it may say so
 * before anyone waits for it.
 */
export function hearListening(child: ChildProcess): void {
  child.on('message', (message: unknown) => {
    if (typeof message === 'object' && message !== null && 'listening' in message) saidListening.add(child);
  });
}

/**
 * The progress of a child that says itself when it listens: an answer on its port alone proves
 * nothing (another process, an earlier run, may hold the port). Once it has said so, `then` asks it.
 */
export const ownProgress = (child: ChildProcess, then: () => Promise<Progress>) => async (): Promise<Progress> =>
  saidListening.has(child) ? then() : notListening;

/** A static server's progress: listening (any answer below 500) or starting. */
export async function serverProgress(url: string): Promise<Progress> {
  try {
    if ((await answer(url)).status < 500) return { ready: true };
  } catch {
    // not listening yet
  }
  return notListening;
}
