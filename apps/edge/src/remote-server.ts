// A remote's static server (`pnpm remote serve <name>`, and one per remote under `pnpm start`): the
// remote's published releases from its own origin, as a CDN would serve them. SIGTERM: it stops
// taking connections and ends when those in flight are answered.
import { isRemoteName, remoteNames } from '@ejdesk/contract';
import { host, releasesDir, remotePort } from './config.ts';
import { serveRemote } from './serve.ts';

const name = process.argv[2];
if (!isRemoteName(name)) {
  console.error(`EJ Desk remote server: ${name ? `'${name}' is not a remote` : 'which remote?'} (${remoteNames.join(', ')})`);
  process.exit(1);
}
const server = await serveRemote(releasesDir(name), remotePort(name), host());
console.log(`${name}'s releases served on http://${host()}:${remotePort(name)} from ${releasesDir(name)}`);
// Under `pnpm start`: its word that it listens (an answer on the port could be another process's).
process.send?.({ listening: remotePort(name) });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
