import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, timestamptz, updatedAt } from '../domain-columns.js';

/** A kind of asset an organization keeps; the code ties it to maintenance norms. Goes to the trash (`deletedAt`). */
export const AssetClassEntity = defineEntity({
  name: 'AssetClass',
  tableName: 'asset_class',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.uuid(),
    code: p.string().length(64),
    name: p.string().length(200),
    description: p.string().length(1000).default(''),
    active: p.boolean().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamptz().nullable(),
  },
});

export type AssetClass = InferEntity<typeof AssetClassEntity>;
