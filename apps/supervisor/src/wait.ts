// Waiting for a supervised process to serve: as long as it is alive, however busy the machine, saying
// what it is doing when that changes (and every so often while it does not), and failing at once
// when the process exits, rather than after a fixed time.
import type { ChildProcess } from 'node:child_process';
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
}

export class StoppedBeforeReady extends Error {}

const exitOf = (child: ChildProcess) => (child.signalCode ? child.signalCode : child.exitCode !== null ? `exit ${child.exitCode}` : undefined);

export async function waitUntilServing({ what, child, progress, say = console.log, pollMs = 200, remindMs = 15_000 }: Waited): Promise<void> {
  const started = Date.now();
  let said = '';
  let saidAt = started;
  const stopped = new Promise<string>((resolve) => {
    const ended = exitOf(child);
    if (ended) return resolve(ended);
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
  });
  const refuse = (how: string) => new StoppedBeforeReady(`${what} stopped (${how}) before it was ready; its own messages above say why.`);
  for (;;) {
    const state = await Promise.race([progress(), stopped.then(refuse)]);
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
    if (ended) throw refuse(ended);
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

/** A static server's progress: listening (any answer below 500) or starting. */
export async function serverProgress(url: string): Promise<Progress> {
  try {
    if ((await answer(url)).status < 500) return { ready: true };
  } catch {
    // not listening yet
  }
  return notListening;
}
