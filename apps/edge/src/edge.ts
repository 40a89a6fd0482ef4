// `pnpm edge`: the shell's server alone, a process a team places beside `pnpm api` behind the
// proxy (deploy/nginx/ejdesk.conf): the console's pages from the shell's build, /api forwarded to
// API_URL, the remotes read from the registry through it. It keeps nothing of its own, so any
// number may run. SIGTERM: it stops taking connections and ends when those in flight are answered.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { apiUrl, edge, host, shellDist, shellPort } from './config.ts';
import { registryFrom, serveShell } from './serve.ts';

const dist = shellDist();
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`EJ Desk edge: ${dist} holds no build of the shell: run pnpm build (or set SHELL_DIST).`);
  process.exit(1);
}
const server = await serveShell({
  root: dist,
  port: shellPort(),
  host: host(),
  apiUrl: apiUrl(),
  remotes: registryFrom(apiUrl()),
  proxySecret: edge.EJDESK_PROXY_SECRET,
  maxUploadBytes: edge.JOURNAL_UPLOAD_MAX_MB * 1024 * 1024,
});
console.log(`EJ Desk edge on http://${host()}:${shellPort()}, forwarding /api to ${apiUrl()}`);
// Under `pnpm start`: its word that it listens (an answer on the port could be another process's).
process.send?.({ listening: shellPort() });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
