import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps, timestamptz } from '../../domain-columns.js';

/** A stocktaking of a warehouse; at most one in progress per warehouse. */
export const TmcInventoryEntity = defineEntity({
  name: 'TmcInventory',
  tableName: 'tmc_inventory',
  properties: {
    ...currentTenantKey(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    inventoryDate: p.date(),
    responsibleId: p.uuid(),
    status: p
      .enum(['in_progress', 'completed'] as const)
      .columnType('varchar(16)')
      .default('in_progress'),
    completedAt: timestamptz().nullable(),
    documentReference: p.string().length(200).nullable(),
    ...timestamps(),
  },
});

export type TmcInventory = InferEntity<typeof TmcInventoryEntity>;

/** A counted item of a stocktaking; a variance is settled by an adjustment movement. */
export const TmcInventoryLineEntity = defineEntity({
  name: 'TmcInventoryLine',
  tableName: 'tmc_inventory_line',
  properties: {
    ...currentTenantKey(),
    tmcInventoryId: p.uuid(),
    lineNo: p.integer(),
    itemId: p.uuid(),
    expectedQuantity: p.decimal().precision(20).scale(3),
    actualQuantity: p.decimal().precision(20).scale(3).nullable(),
    variance: p.decimal().precision(20).scale(3).nullable(),
    note: p.string().length(500).nullable(),
    adjustmentMovementId: p.uuid().nullable(),
    ...timestamps(),
  },
});

export type TmcInventoryLine = InferEntity<typeof TmcInventoryLineEntity>;
