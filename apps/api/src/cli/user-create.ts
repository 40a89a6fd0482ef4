// pnpm --filter @ejdesk/api user:create --email someone@bank.example [--role operator|admin]
// The password comes from EJDESK_PASSWORD or is asked for, so it never lands in shell history.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { createUser, userRoles, type UserRole } from '@ejdesk/db';
import { readSettings, startingWith } from '@ejdesk/settings';
import { loadConfig, userCreateSettings } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { hashPassword } from '../lib/passwords.ts';

const { values } = parseArgs({ options: { email: { type: 'string' }, role: { type: 'string', default: 'operator' } } });
const email = values.email?.trim();
if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) {
  console.error('usage: user:create --email someone@example.com [--role operator|admin]   (password from EJDESK_PASSWORD or the prompt)');
  process.exit(2);
}
const role = values.role as UserRole;
if (!userRoles.includes(role)) {
  console.error(`--role is one of ${userRoles.join(', ')}; '${values.role}' is not.`);
  process.exit(2);
}
let password = startingWith('EJ Desk', () => readSettings(userCreateSettings)).EJDESK_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password: ');
  rl.close();
}
if (password.length < 10) {
  console.error('The password must be at least 10 characters.');
  process.exit(2);
}
const database = await openConfiguredDatabase(startingWith('EJ Desk', loadConfig));
await database.migrate();
const user = await createUser(database.db, email, await hashPassword(password), role);
await database.close();
if (!user) {
  console.error(`An account for ${email} already exists.`);
  process.exit(1);
}
console.log(`created ${user.role} ${user.id} <${user.email}>`);
