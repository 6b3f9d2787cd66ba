import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantKey, timestamptz, updatedAt } from '../domain-columns.js';

/**
 * What every movement of a tank's ledger keeps besides its quantity: when and by whom (or by which
 * saga) it happened, the reversal that undoes it or the movement it undoes (with the reason), and
 * the tank's balance right after it.
 */
const movementColumns = () => ({
  occurredAt: timestamptz().defaultRaw('now()'),
  sagaId: p.uuid().nullable(),
  actorId: p.uuid().nullable(),
  reversalOfId: p.uuid().nullable(),
  reversedById: p.uuid().nullable(),
  reason: p.string().length(500).nullable(),
  balanceAfterLiters: p.decimal().columnType('numeric'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A receipt of fuel into a tank (or its reversal); `balanceAfterLiters` is the tank's balance right after it. */
export const FuelSupplyEntity = defineEntity({
  name: 'FuelSupply',
  tableName: 'fuel_supply',
  properties: {
    ...tenantKey(),
    tankId: p.uuid(),
    objectId: p.uuid(),
    kind: p.enum(['receipt', 'reversal'] as const).columnType('varchar(16)'),
    supplierId: p.uuid().nullable(),
    quantityLiters: p.decimal().columnType('numeric'),
    supplyRequestId: p.uuid().nullable(),
    comment: p.string().length(2000).nullable(),
    ...movementColumns(),
  },
});

export type FuelSupply = InferEntity<typeof FuelSupplyEntity>;

/** An issue of fuel from a tank (or its reversal); `referenceType`/`referenceId` name what it was issued for. */
export const FuelIssueEntity = defineEntity({
  name: 'FuelIssue',
  tableName: 'fuel_issue',
  properties: {
    ...tenantKey(),
    tankId: p.uuid(),
    objectId: p.uuid(),
    kind: p.enum(['issue', 'reversal'] as const).columnType('varchar(16)'),
    liters: p.decimal().columnType('numeric'),
    referenceType: p.string().length(64).nullable(),
    referenceId: p.uuid().nullable(),
    ...movementColumns(),
  },
});

export type FuelIssue = InferEntity<typeof FuelIssueEntity>;
