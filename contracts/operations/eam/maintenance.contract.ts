import { members, type OperationsRole } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { MaintenanceRecord, MaintenanceStatus } from './types.js';

/** Maintenance (seed 002, Maintenance (EAM)): scheduled → inProgress → completed; scheduled or inProgress → cancelled. */

const base = { service: 'operations', tags: ['eam: maintenance'] } as const;
const WORKERS: readonly OperationsRole[] = ['Mechanic', 'Engineer', 'CEO'];
const byId = { id: ops.id() };
const CONFLICT = [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT];
/** A minute of clock difference between client and server is not "in the past". */
const CLOCK_SKEW_MS = 60_000;

export const eamListMaintenance = defineOperation({
  ...base,
  name: 'eamListMaintenance',
  kind: 'query',
  summary: 'List maintenance records',
  description: 'By scheduled time, newest first. Foremen and Mechanics see the records of assets at their objects.',
  access: members(['Engineer', 'Mechanic', 'Foreman', 'CEO']),
  input: { query: { assetId: ops.id().optional(), status: MaintenanceStatus.optional() } },
  output: MaintenanceRecord,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/eam/maintenance' },
});

export const eamScheduleMaintenance = defineOperation({
  ...base,
  name: 'eamScheduleMaintenance',
  kind: 'mutation',
  summary: 'Schedule maintenance',
  description:
    'Of an asset that is not decommissioned. The maintenance record is its own history (the movements journal takes only the seed’s movement kinds).',
  access: members(WORKERS),
  idempotency: 'required',
  input: {
    body: {
      assetId: ops.ref('eam.asset'),
      scheduledAt: ops.dateTime().refine((value) => Date.parse(value) >= Date.now() - CLOCK_SKEW_MS, { error: 'must not be in the past' }),
      reason: ops.text(2, 500),
    },
  },
  output: MaintenanceRecord,
  rest: { method: 'POST', path: '/api/v1/eam/maintenance', status: 201 },
  errors: CONFLICT,
});

export const eamGetMaintenance = defineOperation({
  ...base,
  name: 'eamGetMaintenance',
  kind: 'query',
  summary: 'Maintenance record',
  access: members(['Engineer', 'Mechanic', 'Foreman', 'CEO', 'Admin']),
  input: { path: byId },
  output: MaintenanceRecord,
  rest: { method: 'GET', path: '/api/v1/eam/maintenance/:id' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const eamStartMaintenance = defineOperation({
  ...base,
  name: 'eamStartMaintenance',
  kind: 'mutation',
  summary: 'Start maintenance',
  description: 'Scheduled to inProgress; the asset (operational) goes to `maintenance` and its draft movement is applied.',
  access: members(WORKERS),
  idempotency: 'required',
  input: { path: byId, body: {} },
  output: MaintenanceRecord,
  rest: { method: 'POST', path: '/api/v1/eam/maintenance/:id/start' },
  errors: CONFLICT,
});

export const eamCompleteMaintenance = defineOperation({
  ...base,
  name: 'eamCompleteMaintenance',
  kind: 'mutation',
  summary: 'Complete maintenance',
  description: 'InProgress to completed; the asset is operational again.',
  access: members(WORKERS),
  idempotency: 'required',
  input: { path: byId, body: { notes: ops.text(0, 2000).optional() } },
  output: MaintenanceRecord,
  rest: { method: 'POST', path: '/api/v1/eam/maintenance/:id/complete' },
  errors: CONFLICT,
});

export const eamCancelMaintenance = defineOperation({
  ...base,
  name: 'eamCancelMaintenance',
  kind: 'mutation',
  summary: 'Cancel maintenance',
  description: 'Scheduled or inProgress to cancelled; an asset under this maintenance is operational again.',
  access: members(['Engineer', 'CEO']),
  idempotency: 'required',
  input: { path: byId, body: { reason: ops.text(2, 500) } },
  output: MaintenanceRecord,
  rest: { method: 'POST', path: '/api/v1/eam/maintenance/:id/cancel' },
  errors: CONFLICT,
});

export const MAINTENANCE_CONTRACTS = [
  eamListMaintenance,
  eamScheduleMaintenance,
  eamGetMaintenance,
  eamStartMaintenance,
  eamCompleteMaintenance,
  eamCancelMaintenance,
] as const;
