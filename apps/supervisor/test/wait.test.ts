// `pnpm start` waits for each process it runs as long as that process lives, saying what it is
// doing (starting, listening while its database is reached and migrated, ready), and gives up at
// once, naming how it ended, when the process exits first: no fixed limit a busy machine can pass.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@ejdesk/http/testing';
import { apiProgress, serverProgress, waitUntilServing } from '../src/wait.ts';

const running: ChildProcess[] = [];
const child = (code: string) => {
  const started = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  running.push(started);
  return started;
};
afterEach(() => running.splice(0).forEach((c) => c.kill('SIGKILL')));

describe('waiting for a supervised process', () => {
  it('fails at once when the process exits before it is ready, naming how it ended', async () => {
    const port = await freePort();
    const startedAt = Date.now();
    const waited = waitUntilServing({
      what: 'The API',
      child: child('setTimeout(() => process.exit(3), 300)'),
      progress: () => apiProgress(`http://127.0.0.1:${port}`),
      say: () => undefined,
    });
    await expect(waited).rejects.toThrow('The API stopped (exit 3) before it was ready; its own messages above say why.');
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it('a process already gone is refused without asking it anything', async () => {
    const gone = child('process.exit(0)');
    await new Promise((resolve) => gone.once('exit', resolve));
    let asked = 0;
    const waited = waitUntilServing({
      what: 'The admin remote',
      child: gone,
      progress: async () => (asked++, { ready: false, doing: 'x' }),
      say: () => undefined,
    });
    await expect(waited).rejects.toThrow('The admin remote stopped (exit 0) before it was ready');
    expect(asked).toBeLessThanOrEqual(1);
  });

  it('waits as long as the process lives, saying each state once and reminding while one lasts', async () => {
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    const api = Fastify();
    let migrated = false;
    api.get('/api/ready/', async (_request, reply) => (migrated ? { status: 'ready' } : reply.code(503).send({ detail: 'The database is unavailable.' })));
    const said: string[] = [];
    const alive = child('setInterval(() => {}, 1000)');
    const waited = waitUntilServing({
      what: 'The API',
      child: alive,
      progress: () => apiProgress(apiUrl),
      say: (line) => said.push(line),
      pollMs: 50,
      remindMs: 400,
    });
    // Not listening for a while, then listening with its database not ready, then ready.
    await new Promise((r) => setTimeout(r, 1_000));
    await api.listen({ port, host: '127.0.0.1' });
    await new Promise((r) => setTimeout(r, 1_000));
    migrated = true;
    await waited;
    await api.close();
    expect(said[0]).toBe('The API: starting (not listening yet)...');
    expect(said).toContain('The API: listening, waiting for its database to answer and be migrated...');
    expect(said.some((line) => /^The API: still starting \(not listening yet\) \(\d+ s so far; waiting as long as it runs\)\.$/.test(line))).toBe(true);
    expect(said.indexOf('The API: listening, waiting for its database to answer and be migrated...')).toBeGreaterThan(0);
    expect(alive.exitCode).toBeNull();
  });

  it("a static server's progress: starting until it answers below 500", async () => {
    const port = await freePort();
    expect(await serverProgress(`http://127.0.0.1:${port}/`)).toEqual({ ready: false, doing: 'starting (not listening yet)' });
    const server = Fastify();
    server.get('/', async (_request, reply) => reply.code(404).send());
    await server.listen({ port, host: '127.0.0.1' });
    expect(await serverProgress(`http://127.0.0.1:${port}/`)).toEqual({ ready: true });
    await server.close();
  });

  it('an API that takes the connection but does not answer in time is listening, not starting', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    expect(await apiProgress(`http://127.0.0.1:${port}`, 300)).toEqual({ ready: false, doing: 'listening but not answering yet' });
    silent.close();
    expect(await apiProgress(`http://127.0.0.1:${port}`, 300)).toEqual({ ready: false, doing: 'starting (not listening yet)' });
  });
});
