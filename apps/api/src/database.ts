import { openConfiguredDatabase as open } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';

/** The configured database: DATABASE_URL, else the embedded PGlite under the data folder. */
export const openConfiguredDatabase = (config: ApiConfig) => open(config.databaseUrl, config.dataDir);
