import { openConfiguredDatabase as open, type DatabaseOptions } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';

/** The configured database: DATABASE_URL, else the embedded PGlite under the data folder. */
export const openConfiguredDatabase = (config: ApiConfig, options: Pick<DatabaseOptions, 'statementTimeoutMs' | 'onConnectionError'> = {}) =>
  open(config.databaseUrl, config.dataDir, options);
