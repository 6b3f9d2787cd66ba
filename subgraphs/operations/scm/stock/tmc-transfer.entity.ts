import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps, timestamptz } from '../../domain-columns.js';

/** A transfer of stock between two warehouses: issued, then confirmed by the receiving end. */
export const TmcTransferEntity = defineEntity({
  name: 'TmcTransfer',
  tableName: 'tmc_transfer',
  properties: {
    ...currentTenantKey(),
    fromWarehouseId: p.uuid(),
    toWarehouseId: p.uuid(),
    fromObjectId: p.uuid(),
    toObjectId: p.uuid(),
    status: p
      .enum(['issued', 'confirmed'] as const)
      .columnType('varchar(16)')
      .default('issued'),
    transferDate: p.date(),
    documentNumber: p.string().length(100),
    issuedById: p.uuid(),
    issuedAt: timestamptz().defaultRaw('now()'),
    confirmedById: p.uuid().nullable(),
    confirmedAt: timestamptz().nullable(),
    note: p.string().length(500).nullable(),
    ...timestamps(),
  },
});

export type TmcTransfer = InferEntity<typeof TmcTransferEntity>;

/** A line of a transfer. */
export const TmcTransferLineEntity = defineEntity({
  name: 'TmcTransferLine',
  tableName: 'tmc_transfer_line',
  properties: {
    ...currentTenantKey(),
    tmcTransferId: p.uuid(),
    lineNo: p.integer(),
    itemId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3),
    ...timestamps(),
  },
});

export type TmcTransferLine = InferEntity<typeof TmcTransferLineEntity>;
