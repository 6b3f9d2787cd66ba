import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** A request for a fuel delivery to a tank, from draft to fulfilled by a supply. */
export const FuelSupplyRequestEntity = defineEntity({
  name: 'FuelSupplyRequest',
  tableName: 'fuel_supply_request',
  properties: {
    ...tenantKey(),
    tankId: p.uuid(),
    objectId: p.uuid(),
    requestedVolumeLiters: p.decimal().columnType('numeric'),
    desiredDeliveryDate: p.date(),
    justification: p.string().length(2000),
    status: p
      .enum(['draft', 'submitted', 'approved', 'rejected', 'fulfilled'] as const)
      .columnType('varchar(16)')
      .default('draft'),
    initiatorId: p.uuid(),
    submittedAt: timestamptz().nullable(),
    approvedById: p.uuid().nullable(),
    approvedAt: timestamptz().nullable(),
    approvalComment: p.string().length(1000).nullable(),
    rejectedById: p.uuid().nullable(),
    rejectedAt: timestamptz().nullable(),
    rejectReason: p.string().length(1000).nullable(),
    fulfilledSupplyId: p.uuid().nullable(),
    fulfilledQuantityLiters: p.decimal().columnType('numeric').nullable(),
    fulfilledAt: timestamptz().nullable(),
    lastReturnComment: p.string().length(2000).nullable(),
    ...timestamps(),
  },
});

export type FuelSupplyRequest = InferEntity<typeof FuelSupplyRequestEntity>;
