import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** A decommission of an asset by its saga: a draft until the asset step applies it, `failed` when the saga compensates (docs/adr/0038). */
export const AssetDecommissionEntity = defineEntity({
  name: 'AssetDecommission',
  tableName: 'asset_decommission',
  properties: {
    ...tenantKey(),
    assetId: p.uuid(),
    status: p.enum(['draft', 'applied', 'failed'] as const).columnType('varchar(16)'),
    objectId: p.uuid().nullable(),
    actorId: p.uuid().nullable(),
    reason: p.string().length(2000).nullable(),
    sagaId: p.uuid().nullable(),
    occurredAt: timestamptz().defaultRaw('clock_timestamp()'),
    ...timestamps(),
  },
});

export type AssetDecommission = InferEntity<typeof AssetDecommissionEntity>;
