import { z } from 'zod';
import { members, type OperationsRole } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { FuelErrorCode } from './errors.js';
import { FuelTank, FuelTankStatus } from './types.js';

/** Fuel tanks (seed 002, Fuel (SCM)). */

export const FUEL_READERS: readonly OperationsRole[] = ['Admin', 'CEO', 'Engineer', 'Supply', 'Foreman', 'Mechanic'];
const base = { service: 'operations', tags: ['scm: fuel'] } as const;
const LITERS_MAX = 100_000_000;

export const scmListFuelTanks = defineOperation({
  ...base,
  name: 'scmListFuelTanks',
  kind: 'query',
  summary: 'List fuel tanks',
  description: 'By code. Foremen and Mechanics see the tanks of their production objects only.',
  access: members(FUEL_READERS),
  input: {
    query: { objectId: ops.id().optional(), status: FuelTankStatus.optional(), active: z.boolean().optional() },
  },
  output: FuelTank,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/scm/fuel/tanks' },
});

export const scmCreateFuelTank = defineOperation({
  ...base,
  name: 'scmCreateFuelTank',
  kind: 'mutation',
  summary: 'Create a fuel tank',
  description: 'The minimum level and the initial balance may not exceed the capacity.',
  access: members(['Admin']),
  idempotency: 'required',
  input: {
    body: {
      objectId: ops.ref('core.production-object'),
      code: ops.text(1, 64).describe('Unique within the organization.'),
      capacityLiters: z.int().min(1).max(LITERS_MAX),
      minLevelLiters: z.int().min(0).max(LITERS_MAX),
      initialBalanceLiters: z.number().min(0).max(LITERS_MAX).optional(),
    },
  },
  output: FuelTank,
  rest: { method: 'POST', path: '/api/v1/scm/fuel/tanks', status: 201 },
  errors: [
    OperationsErrorCode.RECORD_NOT_FOUND,
    FuelErrorCode.FUEL_TANK_CODE_TAKEN,
    FuelErrorCode.FUEL_MIN_LEVEL_ABOVE_CAPACITY,
    FuelErrorCode.FUEL_TANK_CAPACITY_EXCEEDED,
  ],
});

export const scmGetFuelTank = defineOperation({
  ...base,
  name: 'scmGetFuelTank',
  kind: 'query',
  summary: 'Fuel tank',
  access: members(FUEL_READERS),
  input: { path: { id: ops.id() } },
  output: FuelTank,
  rest: { method: 'GET', path: '/api/v1/scm/fuel/tanks/:id' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const scmSetFuelTankMinLevel = defineOperation({
  ...base,
  name: 'scmSetFuelTankMinLevel',
  kind: 'mutation',
  summary: 'Update a tank’s minimum level',
  description: 'Audited. Raising it to or above the balance of a tank that was above it publishes `scm.fuel.tank.low-stock`.',
  access: members(['Admin', 'Engineer', 'Supply']),
  idempotency: 'required',
  input: { path: { id: ops.id() }, body: { minLevelLiters: z.number().min(0).max(LITERS_MAX) } },
  output: FuelTank,
  rest: { method: 'POST', path: '/api/v1/scm/fuel/tanks/:id/min-level' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND, FuelErrorCode.FUEL_MIN_LEVEL_ABOVE_CAPACITY],
});

export const TANK_CONTRACTS = [scmListFuelTanks, scmCreateFuelTank, scmGetFuelTank, scmSetFuelTankMinLevel] as const;
