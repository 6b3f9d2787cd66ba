import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps, timestamptz } from '../../domain-columns.js';

/** A write-off of stock from a warehouse to a production object (and possibly an asset). */
export const TmcWriteOffEntity = defineEntity({
  name: 'TmcWriteOff',
  tableName: 'tmc_write_off',
  properties: {
    ...currentTenantKey(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    assetId: p.uuid().nullable(),
    targetObjectId: p.uuid(),
    reason: p.enum(['planned_to', 'repair', 'production', 'loss'] as const).columnType('varchar(16)'),
    documentReference: p.string().length(200).nullable(),
    occurredAt: timestamptz(),
    lineCount: p.integer(),
    createdBy: p.uuid(),
    ...timestamps(),
  },
});

export type TmcWriteOff = InferEntity<typeof TmcWriteOffEntity>;

/** A line of a write-off. */
export const TmcWriteOffLineEntity = defineEntity({
  name: 'TmcWriteOffLine',
  tableName: 'tmc_write_off_line',
  properties: {
    ...currentTenantKey(),
    tmcWriteOffId: p.uuid(),
    lineNo: p.integer(),
    itemId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3),
    price: p.decimal().precision(24).scale(4).nullable(),
    ...timestamps(),
  },
});

export type TmcWriteOffLine = InferEntity<typeof TmcWriteOffLineEntity>;
