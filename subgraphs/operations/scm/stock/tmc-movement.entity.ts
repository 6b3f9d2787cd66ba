import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps, timestamptz } from '../../domain-columns.js';

/** The stock ledger: one signed quantity of an item in a warehouse per movement, and, once, its reversal. */
export const TmcMovementEntity = defineEntity({
  name: 'TmcMovement',
  tableName: 'tmc_movement',
  properties: {
    ...currentTenantKey(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    itemId: p.uuid(),
    kind: p
      .enum(['receipt', 'write_off', 'transfer_out', 'transfer_in', 'inventory_adjustment', 'reversal'] as const)
      .columnType('varchar(24)'),
    quantity: p.decimal().precision(20).scale(3),
    price: p.decimal().precision(24).scale(4).nullable(),
    documentType: p.string().length(24),
    documentId: p.uuid().nullable(),
    sourceKey: p.string().length(200).nullable(),
    reversesId: p.uuid().nullable(),
    occurredAt: timestamptz().defaultRaw('now()'),
    actorId: p.uuid().nullable(),
    ...timestamps(),
  },
});

export type TmcMovement = InferEntity<typeof TmcMovementEntity>;
