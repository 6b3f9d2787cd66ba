import { z } from 'zod';
import { members, type OperationsRole } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { EamErrorCode } from './errors.js';
import { Asset, AssetStatus } from './types.js';

/** Assets (seed 002, Assets (EAM)) and the movement actions the seed names without describing (docs/adr/0011). */

/** 2 or 3 upper-case Latin or Cyrillic (Russian and Kazakh) letters, a hyphen, 3 to 5 digits. */
const INVENTORY_NUMBER = /^[A-ZА-ЯЁӘҒҚҢӨҰҮҺІ]{2,3}-[0-9]{3,5}$/;
const READERS: readonly OperationsRole[] = ['Engineer', 'Mechanic', 'Foreman', 'CEO'];
const MOVERS: readonly OperationsRole[] = ['Mechanic', 'Engineer', 'Admin'];
const base = { service: 'operations', tags: ['eam: assets'] } as const;
const byId = { id: ops.id() };
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];
const CONFLICT = [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT];
const today = () => new Date().toISOString().slice(0, 10);

export const eamListAssets = defineOperation({
  ...base,
  name: 'eamListAssets',
  kind: 'query',
  summary: 'List assets',
  description: 'Newest first. Foremen and Mechanics see the assets at their production objects.',
  access: members(READERS),
  input: { query: { objectId: ops.id().optional(), status: AssetStatus.optional() } },
  output: Asset,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/eam/assets' },
});

export const eamCreateAsset = defineOperation({
  ...base,
  name: 'eamCreateAsset',
  kind: 'mutation',
  summary: 'Create an asset',
  description: 'The asset starts `operational` at `currentObjectId`. Inventory numbers are unique within the organization.',
  access: members(['Mechanic', 'Engineer']),
  idempotency: 'required',
  input: {
    body: {
      inventoryNumber: z
        .string()
        .min(5)
        .max(20)
        .regex(INVENTORY_NUMBER, { error: 'must be 2 or 3 upper-case Latin or Cyrillic letters, a hyphen and 3 to 5 digits' })
        .describe('E.g. `БУ-0042` or `DR-123`.'),
      name: ops.text(2, 200),
      assetClassId: ops.ref('eam.asset-class'),
      currentObjectId: ops.ref('core.production-object'),
      responsibleMechanicId: ops.ref('iam.user').optional().describe('A user of the organization holding the Mechanic role.'),
      commissionedAt: ops.date().refine((date) => date <= today(), { error: 'must not be in the future' }),
      passport: z.record(z.string(), z.unknown()).describe('The technical passport (any JSON object).'),
    },
  },
  output: Asset,
  rest: { method: 'POST', path: '/api/v1/eam/assets', status: 201 },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND, EamErrorCode.ASSET_INVENTORY_NUMBER_TAKEN, EamErrorCode.ASSET_MECHANIC_INVALID],
});

export const eamGetAsset = defineOperation({
  ...base,
  name: 'eamGetAsset',
  kind: 'query',
  summary: 'Asset with its passport',
  access: members([...READERS, 'Admin']),
  input: { path: byId },
  output: Asset,
  rest: { method: 'GET', path: '/api/v1/eam/assets/:id' },
  errors: NOT_FOUND,
});

export const eamMoveAsset = defineOperation({
  ...base,
  name: 'eamMoveAsset',
  kind: 'mutation',
  summary: 'Move an asset to another production object',
  description:
    'Operational assets only; journal op `transfer_audit`. Foremen and Mechanics move only between their own objects (another is not found).',
  access: members(MOVERS),
  idempotency: 'required',
  input: { path: byId, body: { toObjectId: ops.ref('core.production-object'), reason: ops.text(0, 1000).optional() } },
  output: Asset,
  rest: { method: 'POST', path: '/api/v1/eam/assets/:id/move' },
  errors: [...CONFLICT, EamErrorCode.ASSET_ALREADY_AT_OBJECT],
});

export const eamSendAssetToMaintenance = defineOperation({
  ...base,
  name: 'eamSendAssetToMaintenance',
  kind: 'mutation',
  summary: 'Send an asset to maintenance',
  description: 'Opens a maintenance record already in progress; completing or cancelling it makes the asset operational again.',
  access: members(MOVERS),
  idempotency: 'required',
  input: { path: byId, body: { reason: ops.text(2, 500) } },
  output: Asset,
  rest: { method: 'POST', path: '/api/v1/eam/assets/:id/send-to-maintenance' },
  errors: CONFLICT,
});

export const eamDecommissionAsset = defineOperation({
  ...base,
  name: 'eamDecommissionAsset',
  kind: 'mutation',
  summary: 'Decommission an asset (dual approval)',
  description:
    'From any state. `coApprovedBy` is an active CEO or Engineer of the organization other than the caller. Open maintenance is cancelled. A second call answers 409 `ASSET_ALREADY_DECOMMISSIONED`.',
  access: members(['Engineer', 'CEO', 'Mechanic', 'Admin']),
  idempotency: 'required',
  input: {
    path: byId,
    body: {
      coApprovedBy: ops.ref('iam.user').describe('The second approver: a CEO or Engineer; an empty string is refused with 422.'),
      reason: z.string().trim().min(5).max(1000),
    },
  },
  output: Asset,
  rest: { method: 'POST', path: '/api/v1/eam/assets/:id/decommission' },
  errors: [
    OperationsErrorCode.RECORD_NOT_FOUND,
    EamErrorCode.ASSET_ALREADY_DECOMMISSIONED,
    EamErrorCode.ASSET_CO_APPROVER_INVALID,
    EamErrorCode.ASSET_CO_APPROVER_IS_ACTOR,
  ],
});

const action = <R extends z.ZodType>(name: string, verb: string, summary: string, description: string, reason: R, errors = CONFLICT) =>
  defineOperation({
    ...base,
    name,
    kind: 'mutation',
    summary,
    description,
    access: members(MOVERS),
    idempotency: 'required',
    input: { path: byId, body: { reason } },
    output: Asset,
    rest: { method: 'POST', path: `/api/v1/eam/assets/:id/${verb}` },
    errors,
  });

export const eamConserveAsset = action(
  'eamConserveAsset',
  'conserve',
  'Put an asset into conservation',
  'Operational to conserved; journal op `conservation`.',
  ops.text(2, 500),
);

export const eamReturnAssetFromConservation = action(
  'eamReturnAssetFromConservation',
  'return-from-conservation',
  'Return an asset from conservation',
  'Conserved to operational; journal op `from_conservation`.',
  ops.text(0, 500).optional(),
);

export const eamSendAssetToRepair = action(
  'eamSendAssetToRepair',
  'to-repair',
  'Send an asset to repair',
  'Operational to maintenance with a repair record in progress; journal op `to_repair`.',
  ops.text(2, 500),
);

export const eamReturnAssetFromRepair = action(
  'eamReturnAssetFromRepair',
  'from-repair',
  'Return an asset from repair',
  'Completes the repair record; the asset is operational again; journal op `from_repair`. An asset under planned maintenance answers 409 `ASSET_NOT_IN_REPAIR`.',
  ops.text(0, 2000).optional(),
  [...CONFLICT, EamErrorCode.ASSET_NOT_IN_REPAIR],
);

export const ASSET_CONTRACTS = [
  eamListAssets,
  eamCreateAsset,
  eamGetAsset,
  eamMoveAsset,
  eamSendAssetToMaintenance,
  eamDecommissionAsset,
  eamConserveAsset,
  eamReturnAssetFromConservation,
  eamSendAssetToRepair,
  eamReturnAssetFromRepair,
] as const;
