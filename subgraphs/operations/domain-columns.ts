import { p, sql } from '@mikro-orm/core';

/** A `timestamptz` column, read as a Date. */
export const timestamptz = () => p.datetime().columnType('timestamptz');

/** `created_at`: set by the database on insert (`now()`, the transaction's time). */
export const createdAt = () => timestamptz().defaultRaw('now()');

/**
 * `updated_at`: set by the database on insert, and to the transaction's time on every update written through
 * the entity manager (as the SQL writes do).
 */
export const updatedAt = () =>
  timestamptz()
    .defaultRaw('now()')
    .onUpdate(() => sql<Date>`now()`);

/** `organization_id` of the SCM tables: defaults to the transaction's organization (`app.organization_id`). */
export const currentOrganization = () => p.uuid().defaultRaw(`nullif(current_setting('app.organization_id', true), '')::uuid`);
