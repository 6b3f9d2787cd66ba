import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps } from '../../domain-columns.js';

/** A receipt of stock into a warehouse (from a supplier, a transfer or a return). */
export const TmcReceiptEntity = defineEntity({
  name: 'TmcReceipt',
  tableName: 'tmc_receipt',
  properties: {
    ...currentTenantKey(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    source: p.enum(['supplier', 'transfer', 'return'] as const).columnType('varchar(16)'),
    supplierId: p.uuid().nullable(),
    inboundDate: p.date(),
    documentNumber: p.string().length(100),
    documentReference: p.string().length(200).nullable(),
    requestId: p.uuid().nullable(),
    receivedById: p.uuid(),
    totalAmount: p.decimal().columnType('numeric').defaultRaw('0'),
    lineCount: p.integer(),
    createdBy: p.uuid(),
    ...timestamps(),
  },
});

export type TmcReceipt = InferEntity<typeof TmcReceiptEntity>;

/** A line of a receipt: item, quantity, price and amount. */
export const TmcReceiptLineEntity = defineEntity({
  name: 'TmcReceiptLine',
  tableName: 'tmc_receipt_line',
  properties: {
    ...currentTenantKey(),
    tmcReceiptId: p.uuid(),
    lineNo: p.integer(),
    itemId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3),
    price: p.decimal().precision(20).scale(2),
    amount: p.decimal().columnType('numeric'),
    ...timestamps(),
  },
});

export type TmcReceiptLine = InferEntity<typeof TmcReceiptLineEntity>;
