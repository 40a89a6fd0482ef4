// Used by `pnpm start`: migrate, and on the embedded database only, make sure of the two demo
// accounts (an operator and an admin, with those roles) and seed the demo data the first time.
// Nothing is ever created by itself on a real server.
import { createUser, queryRows, users, type UserRole } from '@ejdesk/db';
import { seed, seedDemoJournals } from '@ejdesk/db/seed';
import { sql } from 'drizzle-orm';
import { readSettings, startingWith } from '@ejdesk/settings';
import { demoSettings, loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { hashPassword } from '../lib/passwords.ts';
import { loadSecrets } from '../lib/secrets.ts';

const demoAccounts: { email: string; password: string; role: UserRole }[] = [
  { email: 'operator@example.com', password: 'ejdesk-demo', role: 'operator' },
  { email: 'admin@example.com', password: 'ejdesk-admin', role: 'admin' },
];

const [config, demo] = startingWith('EJ Desk demo', () => [loadConfig(), readSettings(demoSettings)] as const);
const database = await openConfiguredDatabase(config);
await database.migrate();
if (database.backend === 'pglite') {
  const [counts] = await queryRows<{ emails: number }>(database.db, sql`select count(*)::int as emails from emails`);
  for (const account of demoAccounts) {
    // A demo made before roles has its operator as an admin (migration 0021): the demo's roles are
    // these. The password is hashed (argon2, slow on purpose) only for an account still to make.
    const [kept] = await database.db
      .update(users)
      .set({ role: account.role })
      .where(sql`lower(${users.email}) = ${account.email}`)
      .returning({ id: users.id });
    if (!kept) await createUser(database.db, account.email, await hashPassword(account.password), account.role);
  }
  if (counts?.emails === 0) {
    const { EJDESK_DEMO_EMAILS: emails, EJDESK_DEMO_EJ: ej } = demo;
    console.log(`Seeding the demo data (${emails} emails, ${ej} EJ records)...`);
    await seed(database.db, { emails, ej, bankPassKey: loadSecrets(config).bankPassKey });
    const journals = await seedDemoJournals(database.db);
    console.log(`Received ${journals.journals} demo journals, with complaints for ${journals.disputes} of their withdrawals.`);
  }
}
await database.close();
