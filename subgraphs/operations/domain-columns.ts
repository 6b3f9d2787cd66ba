import { p } from '@mikro-orm/core';

/** A `timestamptz` column, read as a Date. */
export const timestamptz = () => p.datetime().columnType('timestamptz');

/** `created_at`: set by the database on insert (`now()`, the transaction's time). */
export const createdAt = () => timestamptz().defaultRaw('now()');

/**
 * `updated_at`: set by the database on insert, and on every update written through the entity manager (a
 * value, not `now()`: an SQL expression is not read back after an update of an entity with generated columns).
 */
export const updatedAt = () =>
  timestamptz()
    .defaultRaw('now()')
    .onUpdate(() => new Date());

/** `id`: a UUID the database draws. */
const generatedId = () => p.uuid().primary().defaultRaw('gen_random_uuid()');

/** `id` (a UUID the database draws) and `organization_id`: the key columns of a tenant table. */
export const tenantKey = () => ({ id: generatedId(), organizationId: p.uuid() });

/**
 * `tenantKey` of the SCM tables, whose `organization_id` defaults to the transaction's organization
 * (`app.organization_id`).
 */
export const currentTenantKey = () => ({
  id: generatedId(),
  organizationId: p.uuid().defaultRaw(`nullif(current_setting('app.organization_id', true), '')::uuid`),
});

/** `created_at` and `updated_at`, as `createdAt` and `updatedAt` keep them. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
