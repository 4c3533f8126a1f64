import { pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';

/** The tenant. Every other row belongs to exactly one organization, and every query is scoped by it. */
export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});
