// The API keeps saved views only of the console's lists (apps/api/src/routes/views/lists.ts); the
// console names each list by its screen's path. Neither side can import the other, so this check
// reads both: a list screen added to a remote without the API knowing it would have its views
// refused, and a list the API knows that no screen has would store views nothing opens.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { viewLists } from '../../apps/api/src/routes/views/lists.ts';
import { allEmailList, categoryListConfigs } from '../../apps/email-remote/src/features/email-lists/lists.ts';
import { fileKinds } from '../../apps/files-remote/src/lib/kinds.ts';
import admin from '../../apps/admin-remote/src/descriptor.ts';
import ej from '../../apps/ej-remote/src/descriptor.ts';
import email from '../../apps/email-remote/src/descriptor.ts';
import files from '../../apps/files-remote/src/descriptor.ts';

const root = join(import.meta.dirname, '../..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );

/** Lists named by a literal where a screen opens its table with views: `table="..."`, `views={{ list: '...' }}`. */
const literalLists = ['email-remote', 'ej-remote', 'files-remote', 'admin-remote'].flatMap((remote) =>
  sources(join(root, 'apps', remote, 'src')).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/\btable="([a-z-]+)"|views=\{\{ list: '([a-z-]+)'/g)].map((m) => (m[1] ?? m[2])!);
  }),
);

describe('the lists an operator may keep views of', () => {
  const consoleLists = [...literalLists, ...[allEmailList, ...categoryListConfigs, ...fileKinds].map((list) => list.path.slice(1))];

  it('are every list screen the console opens with views', () => {
    expect(literalLists).toEqual(expect.arrayContaining(['email', 'audit-log']));
    for (const list of consoleLists) expect(viewLists, list).toContain(list);
  });

  it('are each a screen one of the remotes owns', () => {
    const screens = [admin, ej, email, files].flatMap((descriptor) => descriptor.paths);
    for (const list of viewLists) expect(screens, list).toContain(list);
  });
});
