// What an operator keeps of the console: table preferences and saved views (with each list's default).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../columns.ts';
import { users } from '../identity/schema.ts';

/**
 * What an operator chose for the console (a table's columns: which show, in what order), kept on the
 * server so the choice follows the operator to another machine. One row per operator and key.
 */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updateAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * Saved views of a list (GET /api/views/): a name for a query string (filters, order, page size)
 * and, optionally, the columns. Kept by their owner; an admin may share one with everyone.
 * `list` is the list's name as its column choice names it ('email', 'text-email-data', ...).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    name: text('name').notNull(),
    query: text('query').notNull(),
    columns: jsonb('columns'),
    shared: boolean('shared').notNull().default(false),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  // One name per owner and list; the list's views read by owner or by shared.
  (t) => [
    uniqueIndex('saved_views_user_list_name_key').on(t.userId, t.list, t.name),
    index('saved_views_list_shared_idx')
      .on(t.list)
      .where(sql`${t.shared}`),
  ],
);

/** The view each operator opens a list with when the list is opened without a query. */
export const savedViewDefaults = pgTable(
  'saved_view_defaults',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    viewId: integer('view_id')
      .notNull()
      .references(() => savedViews.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list] }), index('saved_view_defaults_view_id_idx').on(t.viewId)],
);
