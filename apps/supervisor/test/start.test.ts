// `pnpm start` with a port another process holds (an earlier `pnpm start`, a dev server answering
// 404) fails at once naming the port and its setting, before anything is built or written: it
// never says EJ Desk is running on another process's answers.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@ejdesk/http/testing';
import { startProcess } from '@ejdesk/settings/testing';

const here = new URL('..', import.meta.url).pathname;
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

const portSettings = ['SHELL_PORT', 'EMAIL_REMOTE_PORT', 'EJ_REMOTE_PORT', 'FILES_REMOTE_PORT', 'ADMIN_REMOTE_PORT', 'API_PORT'] as const;

/** A run's settings: every port free now, a data folder of its own. */
async function settings(): Promise<Record<(typeof portSettings)[number] | 'EJDESK_DATA_DIR', string>> {
  const ports = await Promise.all(portSettings.map(async (name) => [name, String(await freePort())]));
  const folder = mkdtempSync(join(tmpdir(), 'ejdesk-start-'));
  folders.push(folder);
  return { ...Object.fromEntries(ports), EJDESK_DATA_DIR: join(folder, 'data') } as Awaited<ReturnType<typeof settings>>;
}

describe('pnpm start with a port it cannot have', () => {
  it("the shell's port held by a server answering 404: exit 1 naming it", async () => {
    const env = await settings();
    const other = Fastify();
    other.all('*', async (_request, reply) => reply.code(404).send());
    await other.listen({ port: Number(env.SHELL_PORT), host: '127.0.0.1' });
    try {
      const { code, stderr } = await startProcess(here, 'src/start.ts', env);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`EJ Desk: port ${env.SHELL_PORT} is taken by another process; stop it, or set SHELL_PORT to a free port.`);
      expect(existsSync(env.EJDESK_DATA_DIR)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('two servers given one port: exit 1 naming both settings', async () => {
    const env = await settings();
    const { code, stderr } = await startProcess(here, 'src/start.ts', { ...env, SHELL_PORT: env.API_PORT });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`EJ Desk: API_PORT and SHELL_PORT are both ${env.API_PORT}; each server needs a port of its own.`);
  });
});
