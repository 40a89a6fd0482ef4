// Column shapes shared by the domains' tables.
import { sql } from 'drizzle-orm';
import { customType, numeric, timestamp } from 'drizzle-orm/pg-core';

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export const createdAt = () => timestamp('create_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('update_at', { withTimezone: true }).notNull().defaultNow();
export const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));
