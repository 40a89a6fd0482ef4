// Debian's nginx as the tests run it: deploy/nginx/ejdesk.conf itself, only its addresses
// replaced by the test's instances, in a scratch folder, as an ordinary process.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@ejdesk/http/testing';

const nginx = '/usr/sbin/nginx';
const deployed = new URL('../../../../deploy/nginx/ejdesk.conf', import.meta.url).pathname;

export const nginxInstalled = existsSync(nginx);

export interface Nginx {
  base: string;
  /** nginx's error log so far (why a request failed at the proxy). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * nginx in front of the API instances and the edge instances on these ports. `transform`, applied
 * after the addresses are replaced, runs a variant of the deployed file (to show what a line is for).
 */
export async function startNginx(ports: { api: number[]; edge?: number[]; transform?: (conf: string) => string }): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-nginx-'));
  const listen = await freePort();
  // Each upstream's server lines, the first one's options kept, one line per test instance.
  const upstream = (conf: string, name: string, ports: number[]) =>
    conf.replace(new RegExp(`(upstream ${name} \\{[^}]*?)((?:\\n\\s*server 127\\.0\\.0\\.1:\\d+[^\\n]*)+)`), (_all, head: string, lines: string) => {
      const template = lines.split('\n').find((line) => line.includes('server'))!;
      return head + ports.map((port) => `\n${template.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`)}`).join('');
    });
  let conf = readFileSync(deployed, 'utf8').replace(/listen 80;/, `listen 127.0.0.1:${listen};`);
  conf = upstream(conf, 'ejdesk_api', ports.api);
  conf = upstream(conf, 'ejdesk_edge', ports.edge ?? [await freePort()]);
  if (/:(8000|8001|3000) /.test(conf)) throw new Error('deploy/nginx/ejdesk.conf changed shape: its addresses were not all replaced');
  if (ports.transform) conf = ports.transform(conf);
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'ejdesk.conf'), conf);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log warn;\nevents { worker_connections 512; }\n` +
      `http {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/ejdesk.conf;\n}\n`,
  );
  const child = spawn(nginx, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${listen}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error('nginx did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    errors: () => (existsSync(join(dir, 'logs/error.log')) ? readFileSync(join(dir, 'logs/error.log'), 'utf8') : ''),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
