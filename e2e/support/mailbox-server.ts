// Runs the e2e mailbox: Debian's Dovecot through apps/ingest's test helper, and a control server:
// POST /append (the raw message as the body), POST /halt (an outage: the server stops, its mail
// stays), POST /resume. Started by playwright.config.ts before `pnpm start`.
import { createServer } from 'node:http';
import { startDovecot } from '../../apps/ingest/test/support/dovecot.ts';
import { mailbox } from './mailbox.ts';

const dovecot = await startDovecot({ port: mailbox.imapPort, password: mailbox.password });
const actions: Record<string, (body: Buffer) => Promise<void>> = {
  'GET /health': async () => undefined,
  'POST /append': (body) => dovecot.append([body]),
  'POST /halt': () => dovecot.halt(),
  'POST /resume': () => dovecot.resume(),
};
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const action = actions[`${request.method} ${request.url}`];
    if (!action) return void response.writeHead(404, { 'content-type': 'text/plain' }).end(`No ${request.method} ${request.url}`);
    action(Buffer.concat(chunks)).then(
      () => response.writeHead(204).end(),
      (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });
});
server.listen(mailbox.controlPort, '127.0.0.1');
const stop = () => {
  server.close();
  void dovecot.stop().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
