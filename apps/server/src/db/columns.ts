import { timestamp } from 'drizzle-orm/pg-core';

/** Every table's `created_at` / `updated_at`: timestamptz, read as Date, written by the database. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
