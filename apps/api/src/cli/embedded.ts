// What a command line tool run beside the API needs to know about the embedded database: while the
// API runs on it, it is that process's alone.
import type { ApiConfig } from '../config.ts';

/** Whether something answers on API_PORT that may be the API on this embedded database (as pnpm backup finds it). */
export async function apiMayBeRunning(config: ApiConfig): Promise<boolean> {
  const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  try {
    // Without a token the backup route answers 401 on an embedded database, 404 on PostgreSQL (another database).
    const response = await fetch(`http://${host}:${config.port}/api/backup/`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return response.status !== 404;
  } catch (error) {
    return (error as { cause?: { code?: unknown } }).cause?.code !== 'ECONNREFUSED';
  }
}
