// For the tests that start servers of their own (the API, the edge, nginx) on this machine.
import { createServer } from 'node:net';

/** A port nothing listens on now: the system picks it (random ranges of our own collided). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
