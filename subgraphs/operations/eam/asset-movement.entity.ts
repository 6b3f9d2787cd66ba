import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** The movements journal of assets (seed 002's five ops): transfers between objects, conservation and repair. */
export const AssetMovementEntity = defineEntity({
  name: 'AssetMovement',
  tableName: 'asset_movement',
  properties: {
    ...tenantKey(),
    assetId: p.uuid(),
    /** The kind of movement; the migrations' check constraint lists the allowed values. */
    op: p.string().length(24),
    status: p.enum(['draft', 'applied', 'failed', 'cancelled'] as const).columnType('varchar(16)'),
    fromObjectId: p.uuid().nullable(),
    toObjectId: p.uuid().nullable(),
    actorId: p.uuid().nullable(),
    occurredAt: timestamptz().defaultRaw('clock_timestamp()'),
    reason: p.string().length(2000).nullable(),
    maintenanceId: p.uuid().nullable(),
    ...timestamps(),
    sagaId: p.uuid().nullable(),
  },
});

export type AssetMovement = InferEntity<typeof AssetMovementEntity>;
