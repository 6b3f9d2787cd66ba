import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps, timestamptz } from '../../domain-columns.js';

/** A request for stock for a warehouse, from draft to fulfilled by receipts (`linkedInboundIds`). */
export const TmcRequestEntity = defineEntity({
  name: 'TmcRequest',
  tableName: 'tmc_request',
  properties: {
    ...currentTenantKey(),
    warehouseId: p.uuid(),
    objectId: p.uuid(),
    createdById: p.uuid(),
    justification: p.string().length(2000),
    status: p
      .enum(['draft', 'sent', 'approved', 'rejected', 'in_progress', 'fulfilled'] as const)
      .columnType('varchar(16)')
      .default('draft'),
    submittedAt: timestamptz().nullable(),
    approvedById: p.uuid().nullable(),
    approvedAt: timestamptz().nullable(),
    rejectedById: p.uuid().nullable(),
    rejectedAt: timestamptz().nullable(),
    rejectReason: p.string().length(500).nullable(),
    returnedById: p.uuid().nullable(),
    returnComment: p.string().length(500).nullable(),
    startedAt: timestamptz().nullable(),
    fulfilledAt: timestamptz().nullable(),
    linkedInboundIds: p.array().columnType('uuid[]').defaultRaw(`'{}'`),
    ...timestamps(),
  },
});

export type TmcRequest = InferEntity<typeof TmcRequestEntity>;

/** A line of a stock request. */
export const TmcRequestLineEntity = defineEntity({
  name: 'TmcRequestLine',
  tableName: 'tmc_request_line',
  properties: {
    ...currentTenantKey(),
    tmcRequestId: p.uuid(),
    lineNo: p.integer(),
    itemId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3),
    ...timestamps(),
  },
});

export type TmcRequestLine = InferEntity<typeof TmcRequestLineEntity>;
