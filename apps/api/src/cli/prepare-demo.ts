// Used by `pnpm start`: migrate, and on the embedded database only, create the demo operator and
// seed the demo data the first time. Nothing is ever created by itself on a real server.
import { createUser, queryRows } from '@ejdesk/db';
import { seed } from '@ejdesk/db/seed';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { hashPassword } from '../lib/passwords.ts';
import { loadSecrets } from '../lib/secrets.ts';

export const demoOperator = { email: 'operator@example.com', password: 'ejdesk-demo' };

const config = loadConfig();
const database = await openConfiguredDatabase(config);
await database.migrate();
if (database.backend === 'pglite') {
  const [counts] = await queryRows<{ users: number; emails: number }>(
    database.db,
    sql`select (select count(*) from users)::int as users, (select count(*) from emails)::int as emails`,
  );
  if (counts?.users === 0) await createUser(database.db, demoOperator.email, await hashPassword(demoOperator.password));
  if (counts?.emails === 0) {
    const emails = Number(process.env.EJDESK_DEMO_EMAILS ?? 5000);
    const ej = Number(process.env.EJDESK_DEMO_EJ ?? 20000);
    console.log(`Seeding the demo data (${emails} emails, ${ej} EJ records)...`);
    await seed(database.db, { emails, ej, bankPassKey: loadSecrets(config).bankPassKey });
  }
}
await database.close();
