// `pnpm dev`: migrate (and seed the embedded demo once), then watch mode for the API and the five
// Rsbuild dev servers on the usual ports. Each remote can also run alone: pnpm --filter <remote> dev.
import { spawn, spawnSync } from 'node:child_process';
import { childEnv } from '@ejdesk/settings';
import { dataDir, root } from './config.ts';

// Child processes run in their own folders: hand them an absolute data folder.
const env = childEnv({ EJDESK_DATA_DIR: dataDir() });
const prepared = spawnSync('pnpm', ['--filter', '@ejdesk/api', '--silent', 'prepare:demo'], { cwd: root, stdio: 'inherit', env });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

const watchers = spawn('pnpm', ['-r', '--parallel', '--filter', './apps/**', 'dev'], { cwd: root, stdio: 'inherit', env: { LOG_LEVEL: 'info', ...env } });
watchers.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => watchers.kill(signal));
