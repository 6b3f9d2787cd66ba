import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps } from '../../domain-columns.js';

/** The quantity of one item in one warehouse, changed only by the stock ledger (SQL with row locks). */
export const StockBalanceEntity = defineEntity({
  name: 'StockBalance',
  tableName: 'stock_balance',
  properties: {
    ...currentTenantKey(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    itemId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3).defaultRaw('0'),
    minQuantity: p.decimal().precision(20).scale(3).nullable(),
    ...timestamps(),
  },
});

export type StockBalance = InferEntity<typeof StockBalanceEntity>;
