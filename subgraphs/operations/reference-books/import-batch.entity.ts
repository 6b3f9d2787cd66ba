import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';

/** A previewed reference-book import awaiting its commit: the parsed rows and the diff against the book. */
export const ImportBatchEntity = defineEntity({
  name: 'ImportBatch',
  tableName: 'import_batch',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    book: p.text(),
    mode: p.text(),
    rows: p.json<unknown[]>(),
    diff: p.json<Record<string, unknown>>(),
    totalRows: p.integer(),
    createdBy: p.uuid(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    expiresAt: p.datetime().columnType('timestamptz'),
    committedAt: p.datetime().columnType('timestamptz').nullable(),
    applied: p.integer().nullable(),
    eventId: p.uuid().nullable(),
  },
});

export type ImportBatch = InferEntity<typeof ImportBatchEntity>;
