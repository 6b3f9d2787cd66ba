import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, currentOrganization, updatedAt } from '../../domain-columns.js';

/** The quantity of one item in one warehouse, changed only by the stock ledger (SQL with row locks). */
export const StockBalanceEntity = defineEntity({
  name: 'StockBalance',
  tableName: 'stock_balance',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: currentOrganization(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    itemId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3).defaultRaw('0'),
    minQuantity: p.decimal().precision(20).scale(3).nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export type StockBalance = InferEntity<typeof StockBalanceEntity>;
