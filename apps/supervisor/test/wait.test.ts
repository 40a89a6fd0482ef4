// `pnpm start` waits for each process it runs as long as that process lives, saying what it is
// doing (starting, listening while its database is reached and migrated, ready), and gives up at
// once, naming how it ended, when the process exits first: no fixed limit a busy machine can pass.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@ejdesk/http/testing';
import { apiProgress, hearListening, ownProgress, serverProgress, waitUntilServing } from '../src/wait.ts';

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

// A server's port held by another process (an earlier `pnpm start`, a dev server answering 404):
// its answers must not pass for the server's, which fails to listen and exits.
describe('a server whose port another process holds', () => {
  const server = (port: number) => {
    const code = `require('node:http').createServer((_, answer) => answer.end()).listen(${port}, '127.0.0.1', () => process.send({ listening: ${port} }))`;
    const started = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    hearListening(started);
    running.push(started);
    return started;
  };

  it("is not ready on the other process's answer, and fails naming the port", async () => {
    const port = await freePort();
    const other = Fastify();
    other.get('/remotes.json', async (_request, reply) => reply.code(404).send());
    await other.listen({ port, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${port}/remotes.json`;
    // The other process answers below 500: an answer alone would have passed for ours.
    expect(await serverProgress(url)).toEqual({ ready: true });
    const said: string[] = [];
    const shell = server(port);
    const waited = waitUntilServing({
      what: "The shell's server",
      child: shell,
      progress: ownProgress(shell, () => serverProgress(url)),
      port: { port, host: '127.0.0.1', setting: 'SHELL_PORT' },
      say: (line) => said.push(line),
      pollMs: 50,
    });
    await expect(waited).rejects.toThrow(
      `The shell's server stopped (exit 1) before it was ready: port ${port} is taken by another process; stop it, or set SHELL_PORT to a free port.`,
    );
    expect(said).toEqual(["The shell's server: starting (not listening yet)..."]);
    await other.close();
  });

  it('one that says it listens is ready', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const remote = server(port);
    await waitUntilServing({
      what: 'The email remote',
      child: remote,
      progress: ownProgress(remote, () => serverProgress(url)),
      say: () => undefined,
      pollMs: 50,
    });
    expect(remote.exitCode).toBeNull();
  });

  it('stopped for another reason, with its port free: its own messages say why', async () => {
    const port = await freePort();
    const gone = child('process.exit(2)');
    const waited = waitUntilServing({
      what: 'The files remote',
      child: gone,
      progress: ownProgress(gone, () => serverProgress(`http://127.0.0.1:${port}/`)),
      port: { port, host: '127.0.0.1', setting: 'FILES_REMOTE_PORT' },
      say: () => undefined,
    });
    await expect(waited).rejects.toThrow('The files remote stopped (exit 2) before it was ready; its own messages above say why.');
  });
});
