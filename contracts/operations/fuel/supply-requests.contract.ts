import { z } from 'zod';
import { members, type OperationsRole } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { FuelErrorCode } from './errors.js';
import { FUEL_READERS } from './tanks.contract.js';
import { FuelSupplyRequest, FuelSupplyRequestDetail, FuelSupplyRequestStatus } from './types.js';

/**
 * Fuel supply requests: draft → submitted → approved → fulfilled (by linking a supply);
 * submitted → rejected (terminal) or back to draft (returned for rework).
 */

const base = { service: 'operations', tags: ['scm: fuel'] } as const;
const INITIATORS: readonly OperationsRole[] = ['Supply', 'Engineer', 'Foreman', 'Mechanic', 'Admin'];
const APPROVERS: readonly OperationsRole[] = ['CEO', 'Engineer'];
const byId = { id: ops.id() };
const CONFLICT = [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT];
const volume = () => z.number().gt(0).max(100_000_000);

export const scmListFuelSupplyRequests = defineOperation({
  ...base,
  name: 'scmListFuelSupplyRequests',
  kind: 'query',
  summary: 'List fuel supply requests',
  description: 'Newest first. Foremen and Mechanics see the requests for tanks of their objects.',
  access: members(FUEL_READERS),
  input: { query: { tankId: ops.id().optional(), status: FuelSupplyRequestStatus.optional() } },
  output: FuelSupplyRequest,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/scm/fuel/supply-requests' },
});

export const scmCreateFuelSupplyRequest = defineOperation({
  ...base,
  name: 'scmCreateFuelSupplyRequest',
  kind: 'mutation',
  summary: 'Create a fuel supply request',
  description: 'Created in `draft`.',
  access: members(INITIATORS),
  idempotency: 'required',
  input: {
    body: {
      tankId: ops.ref('scm.fuel-tank'),
      requestedVolumeLiters: volume(),
      desiredDeliveryDate: ops.date(),
      justification: ops.text(1, 2000),
    },
  },
  output: FuelSupplyRequest,
  rest: { method: 'POST', path: '/api/v1/scm/fuel/supply-requests', status: 201 },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const scmGetFuelSupplyRequest = defineOperation({
  ...base,
  name: 'scmGetFuelSupplyRequest',
  kind: 'query',
  summary: 'Fuel supply request with its supplies',
  access: members(FUEL_READERS),
  input: { path: byId },
  output: FuelSupplyRequestDetail,
  rest: { method: 'GET', path: '/api/v1/scm/fuel/supply-requests/:id' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const scmUpdateFuelSupplyRequest = defineOperation({
  ...base,
  name: 'scmUpdateFuelSupplyRequest',
  kind: 'mutation',
  summary: 'Edit a fuel supply request',
  description: 'Only in `draft` (409 `STATE_CONFLICT` otherwise).',
  access: members(INITIATORS),
  idempotency: 'required',
  input: {
    path: byId,
    body: {
      requestedVolumeLiters: volume().optional(),
      desiredDeliveryDate: ops.date().optional(),
      justification: ops.text(1, 2000).optional(),
    },
  },
  output: FuelSupplyRequest,
  rest: { method: 'PATCH', path: '/api/v1/scm/fuel/supply-requests/:id' },
  errors: CONFLICT,
});

const transition = <const B extends Record<string, z.ZodType>>(
  name: string,
  verb: string,
  summary: string,
  description: string,
  body: B,
  approvers = true,
) =>
  defineOperation({
    ...base,
    name,
    kind: 'mutation',
    summary,
    description,
    access: members(approvers ? APPROVERS : INITIATORS),
    idempotency: 'required',
    input: { path: byId, body },
    output: FuelSupplyRequest,
    rest: { method: 'POST', path: `/api/v1/scm/fuel/supply-requests/:id/${verb}` },
    errors: CONFLICT,
  });

export const scmSubmitFuelSupplyRequest = transition(
  'scmSubmitFuelSupplyRequest',
  'submit',
  'Submit a fuel supply request',
  'Draft to submitted; publishes `scm.fuel.supply-request.submitted` for the approvers (CEO, Engineer).',
  {},
  false,
);
export const scmApproveFuelSupplyRequest = transition(
  'scmApproveFuelSupplyRequest',
  'approve',
  'Approve a fuel supply request',
  'Submitted to approved: the supplier may ship.',
  { comment: ops.text(0, 1000).optional() },
);
export const scmRejectFuelSupplyRequest = transition(
  'scmRejectFuelSupplyRequest',
  'reject',
  'Reject a fuel supply request',
  'Submitted to rejected (terminal).',
  { reason: z.string().trim().min(10).max(1000) },
);
export const scmReturnFuelSupplyRequest = transition(
  'scmReturnFuelSupplyRequest',
  'return',
  'Return a fuel supply request for rework',
  'Submitted to draft; the comment is kept in `lastReturnComment`.',
  { comment: z.string().trim().min(10).max(2000) },
);

export const scmLinkFuelSupply = defineOperation({
  ...base,
  name: 'scmLinkFuelSupply',
  kind: 'mutation',
  summary: 'Link the supply that fulfils a request',
  description:
    'Approved to fulfilled; sets `fulfilledSupplyId`, `fulfilledQuantityLiters` (default the requested volume) and `fulfilledAt`. The supply is a receipt into the request’s tank, not reversed, recorded for no other request and linked to no other request.',
  access: members(['Supply', 'Admin']),
  idempotency: 'required',
  input: { path: byId, body: { supplyId: ops.ref('scm.fuel-supply'), fulfilledQuantityLiters: volume().optional() } },
  output: FuelSupplyRequest,
  rest: { method: 'POST', path: '/api/v1/scm/fuel/supply-requests/:id/link-supply' },
  errors: [
    ...CONFLICT,
    FuelErrorCode.FUEL_SUPPLY_ALREADY_LINKED,
    FuelErrorCode.FUEL_SUPPLY_ALREADY_REVERSED,
    FuelErrorCode.FUEL_SUPPLY_MISMATCH,
  ],
});

export const SUPPLY_REQUEST_CONTRACTS = [
  scmListFuelSupplyRequests,
  scmCreateFuelSupplyRequest,
  scmGetFuelSupplyRequest,
  scmUpdateFuelSupplyRequest,
  scmSubmitFuelSupplyRequest,
  scmApproveFuelSupplyRequest,
  scmRejectFuelSupplyRequest,
  scmReturnFuelSupplyRequest,
  scmLinkFuelSupply,
] as const;
