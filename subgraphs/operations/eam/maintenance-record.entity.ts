import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** A planned maintenance or repair of an asset; at most one per asset is in progress. */
export const MaintenanceRecordEntity = defineEntity({
  name: 'MaintenanceRecord',
  tableName: 'maintenance_record',
  properties: {
    ...tenantKey(),
    assetId: p.uuid(),
    objectId: p.uuid(),
    kind: p
      .enum(['maintenance', 'repair'] as const)
      .columnType('varchar(16)')
      .default('maintenance'),
    status: p
      .enum(['scheduled', 'inProgress', 'completed', 'cancelled'] as const)
      .columnType('varchar(16)')
      .default('scheduled'),
    scheduledAt: timestamptz(),
    startedAt: timestamptz().nullable(),
    completedAt: timestamptz().nullable(),
    cancelledAt: timestamptz().nullable(),
    cancelledBy: p.uuid().nullable(),
    cancellationReason: p.string().length(500).nullable(),
    reason: p.string().length(500).nullable(),
    notes: p.string().length(2000).nullable(),
    performedBy: p.uuid().nullable(),
    createdBy: p.uuid().nullable(),
    ...timestamps(),
  },
});

export type MaintenanceRecord = InferEntity<typeof MaintenanceRecordEntity>;
