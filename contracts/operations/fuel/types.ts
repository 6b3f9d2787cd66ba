import { z } from 'zod';
import { timestamps } from '../fields.js';

/** Records of fuel (SCM): tanks, supply requests, supplies. Volumes are litres, exact decimals. */

const nullableAt = () => z.string().nullable().describe('ISO 8601, null until it happens.');

export const FuelTankStatus = z.enum(['normal', 'attention', 'critical']).meta({
  id: 'FuelTankStatus',
  description:
    '`critical`: balance at or below the minimum level; `attention`: above it by at most 20% of the minimum; `normal` otherwise.',
});

export const FuelSupplyRequestStatus = z
  .enum(['draft', 'submitted', 'approved', 'rejected', 'fulfilled'])
  .meta({ id: 'FuelSupplyRequestStatus', description: '`fulfilled`: an approved request closed by linking its supply.' });

export const FuelSupplyKind = z
  .enum(['receipt', 'reversal'])
  .meta({ id: 'FuelSupplyKind', description: '`receipt`: fuel received; `reversal`: the counter-entry of a receipt.' });

export const FuelTank = z
  .object({
    id: z.uuid(),
    objectId: z.uuid(),
    code: z.string(),
    capacityLiters: z.number(),
    minLevelLiters: z.number().describe('Threshold of the low-stock alert.'),
    currentBalanceLiters: z.number(),
    active: z.boolean(),
    statusDerived: FuelTankStatus,
    ...timestamps,
  })
  .meta({ id: 'FuelTank', description: 'A fuel tank at a production object.' });

export const FuelSupplyRequest = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    tankId: z.uuid(),
    objectId: z.uuid().describe('The tank’s production object.'),
    requestedVolumeLiters: z.number(),
    desiredDeliveryDate: z.string().describe('YYYY-MM-DD.'),
    justification: z.string(),
    status: FuelSupplyRequestStatus,
    initiatorId: z.uuid(),
    submittedAt: nullableAt(),
    approvedById: z.uuid().nullable(),
    approvedAt: nullableAt(),
    approvalComment: z.string().nullable(),
    rejectedById: z.uuid().nullable(),
    rejectedAt: nullableAt(),
    rejectReason: z.string().nullable(),
    fulfilledSupplyId: z.uuid().nullable(),
    fulfilledQuantityLiters: z.number().nullable(),
    fulfilledAt: nullableAt(),
    lastReturnComment: z.string().nullable().describe('The comment of the last return for rework.'),
    ...timestamps,
  })
  .meta({ id: 'FuelSupplyRequest', description: 'A request to deliver fuel to a tank.' });

export const FuelSupply = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    tankId: z.uuid(),
    objectId: z.uuid(),
    kind: FuelSupplyKind,
    supplierId: z.uuid().nullable(),
    quantityLiters: z.number().describe('Always positive; a reversal takes this much out again.'),
    occurredAt: z.string().describe('ISO 8601.'),
    supplyRequestId: z.uuid().nullable(),
    sagaId: z.uuid().nullable(),
    actorId: z.uuid().nullable(),
    reversalOfId: z.uuid().nullable().describe('On a reversal: the receipt it reverses.'),
    reversedById: z.uuid().nullable().describe('On a receipt: its reversal, once reversed.'),
    reason: z.string().nullable(),
    comment: z.string().nullable(),
    balanceAfterLiters: z.number().describe('The tank’s balance right after this entry.'),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'FuelSupply', description: 'A receipt of fuel into a tank, or its reversal.' });

export const FuelSupplyRequestDetail = FuelSupplyRequest.extend({
  supplies: z.array(FuelSupply).describe('Supplies recorded against the request or linked to it, with their reversals.'),
}).meta({ id: 'FuelSupplyRequestDetail', description: 'A supply request with its supplies.' });

export type FuelTankData = z.output<typeof FuelTank>;
export type FuelSupplyRequestData = z.output<typeof FuelSupplyRequest>;
export type FuelSupplyData = z.output<typeof FuelSupply>;
