// pnpm --filter @ejdesk/api user:create --email someone@bank.example
// The password comes from EJDESK_PASSWORD or is asked for, so it never lands in shell history.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { createUser } from '@ejdesk/db';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { hashPassword } from '../lib/passwords.ts';

const { values } = parseArgs({ options: { email: { type: 'string' } } });
const email = values.email?.trim();
if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) {
  console.error('usage: user:create --email someone@example.com   (password from EJDESK_PASSWORD or the prompt)');
  process.exit(2);
}
let password = process.env.EJDESK_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password: ');
  rl.close();
}
if (password.length < 10) {
  console.error('The password must be at least 10 characters.');
  process.exit(2);
}
const database = await openConfiguredDatabase(loadConfig());
await database.migrate();
const user = await createUser(database.db, email, await hashPassword(password));
await database.close();
if (!user) {
  console.error(`An account for ${email} already exists.`);
  process.exit(1);
}
console.log(`created user ${user.id} <${user.email}>`);
