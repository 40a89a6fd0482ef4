// pnpm --filter @ejdesk/api migrate: apply pending migrations to the configured database.
import { startingWith } from '@ejdesk/settings';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';

const database = await openConfiguredDatabase(startingWith('EJ Desk', loadConfig));
await database.migrate();
await database.close();
console.log(`migrations applied (${database.backend})`);
