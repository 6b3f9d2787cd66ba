import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, timestamptz, updatedAt } from '../domain-columns.js';

/** A decommission of an asset by its saga: a draft until the asset step applies it, `failed` when the saga compensates (docs/adr/0038). */
export const AssetDecommissionEntity = defineEntity({
  name: 'AssetDecommission',
  tableName: 'asset_decommission',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.uuid(),
    assetId: p.uuid(),
    status: p.enum(['draft', 'applied', 'failed'] as const).columnType('varchar(16)'),
    objectId: p.uuid().nullable(),
    actorId: p.uuid().nullable(),
    reason: p.string().length(2000).nullable(),
    sagaId: p.uuid().nullable(),
    occurredAt: timestamptz().defaultRaw('clock_timestamp()'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export type AssetDecommission = InferEntity<typeof AssetDecommissionEntity>;
