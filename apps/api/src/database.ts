import { openDatabase } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';

/** The configured database: DATABASE_URL, else the embedded PGlite under the data folder. */
export const openConfiguredDatabase = (config: ApiConfig) =>
  openDatabase({ url: config.databaseUrl, dataDir: `${config.dataDir}/pg` });
