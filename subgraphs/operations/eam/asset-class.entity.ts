import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** A kind of asset an organization keeps; the code ties it to maintenance norms. Goes to the trash (`deletedAt`). */
export const AssetClassEntity = defineEntity({
  name: 'AssetClass',
  tableName: 'asset_class',
  properties: {
    ...tenantKey(),
    code: p.string().length(64),
    name: p.string().length(200),
    description: p.string().length(1000).default(''),
    active: p.boolean().default(true),
    ...timestamps(),
    deletedAt: timestamptz().nullable(),
  },
});

export type AssetClass = InferEntity<typeof AssetClassEntity>;
