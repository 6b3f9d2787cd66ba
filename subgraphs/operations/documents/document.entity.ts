import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** A file in object storage attached to a record; `size` and `sha256` are known once the upload is confirmed. */
export const DocumentEntity = defineEntity({
  name: 'Document',
  tableName: 'document',
  properties: {
    ...tenantKey(),
    entityType: p.string().length(100),
    entityId: p.uuid(),
    filename: p.string().length(255),
    mimeType: p.string().length(200).nullable(),
    bucket: p.enum(['documents', 'hse-photos', 'reports', 'asset-passports'] as const).columnType('varchar(32)'),
    status: p
      .enum(['pending', 'ready'] as const)
      .columnType('varchar(16)')
      .default('pending'),
    size: p.bigint('number').nullable(),
    sha256: p.character().length(64).nullable(),
    createdBy: p.uuid().nullable(),
    confirmedBy: p.uuid().nullable(),
    confirmedAt: timestamptz().nullable(),
    ...timestamps(),
  },
});

export type Document = InferEntity<typeof DocumentEntity>;
