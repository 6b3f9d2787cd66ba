import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { FuelErrorCode } from './errors.js';
import { FUEL_READERS } from './tanks.contract.js';
import { FuelSupply } from './types.js';

/** Fuel supplies: receipts into a tank and their reversals (counter-entries). */

const base = { service: 'operations', tags: ['scm: fuel'] } as const;

export const scmListFuelSupplies = defineOperation({
  ...base,
  name: 'scmListFuelSupplies',
  kind: 'query',
  summary: 'Supply history',
  description: 'Receipts and reversals, newest first. Foremen and Mechanics see their objects’ tanks only.',
  access: members(FUEL_READERS),
  input: { query: { tankId: ops.id().optional(), supplierId: ops.id().optional() } },
  output: FuelSupply,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/scm/fuel/supplies' },
});

export const scmRecordFuelSupply = defineOperation({
  ...base,
  name: 'scmRecordFuelSupply',
  kind: 'mutation',
  summary: 'Record a fuel supply (receipt)',
  description:
    'Adds the quantity to the tank’s balance in the same transaction; a balance above the capacity is refused with 422 `FUEL_TANK_CAPACITY_EXCEEDED`. A `supplyRequestId` must name a request for the same tank.',
  access: members(['Supply', 'Admin']),
  idempotency: 'required',
  input: {
    body: {
      tankId: ops.ref('scm.fuel-tank'),
      supplierId: ops.ref('scm.supplier'),
      quantityLiters: z.number().gt(0).max(100_000_000),
      supplyRequestId: ops.ref('scm.fuel-supply-request').nullable().default(null),
      sagaId: ops.id().nullable().default(null),
      occurredAt: ops.dateTime().optional().describe('Default now.'),
    },
  },
  output: FuelSupply,
  rest: { method: 'POST', path: '/api/v1/scm/fuel/supplies', status: 201 },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND, FuelErrorCode.FUEL_TANK_CAPACITY_EXCEEDED, FuelErrorCode.FUEL_SUPPLY_MISMATCH],
});

export const scmReverseFuelSupply = defineOperation({
  ...base,
  name: 'scmReverseFuelSupply',
  kind: 'mutation',
  summary: 'Reverse a fuel supply (counter-entry)',
  description:
    'Keeps the receipt and records a reversal taking its quantity out of the tank; refused with 422 `FUEL_BALANCE_INSUFFICIENT` when the tank holds less. Crossing the minimum level publishes `scm.fuel.tank.low-stock`.',
  access: members(['Supply', 'CEO', 'Admin']),
  idempotency: 'required',
  input: { path: { id: ops.id() }, body: { reason: z.string().trim().min(3).max(500), comment: z.string().trim().min(10).max(2000) } },
  output: FuelSupply,
  rest: { method: 'POST', path: '/api/v1/scm/fuel/supplies/:id/reverse' },
  errors: [
    OperationsErrorCode.RECORD_NOT_FOUND,
    FuelErrorCode.FUEL_SUPPLY_ALREADY_REVERSED,
    FuelErrorCode.FUEL_SUPPLY_NOT_REVERSIBLE,
    FuelErrorCode.FUEL_BALANCE_INSUFFICIENT,
  ],
});

export const SUPPLY_CONTRACTS = [scmListFuelSupplies, scmRecordFuelSupply, scmReverseFuelSupply] as const;
