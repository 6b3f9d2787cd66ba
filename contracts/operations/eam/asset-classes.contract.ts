import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { EamErrorCode } from './errors.js';
import { AssetClass } from './types.js';

/** Asset classes: not described by the seed, ours so assets can be made (docs/adr/0011). */

const base = { service: 'operations', tags: ['eam: asset classes'] } as const;
const WRITERS = ['Engineer', 'CEO', 'Admin'] as const;

export const eamListAssetClasses = defineOperation({
  ...base,
  name: 'eamListAssetClasses',
  kind: 'query',
  summary: 'List asset classes',
  description: 'Ordered by code; classes in the trash are left out.',
  access: members(['CEO', 'Engineer', 'Foreman', 'Mechanic', 'OtibSpecialist', 'Supply', 'Admin'], { objectScope: false }),
  input: { query: { activeOnly: z.boolean().default(false) } },
  output: AssetClass,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/eam/asset-classes' },
});

export const eamCreateAssetClass = defineOperation({
  ...base,
  name: 'eamCreateAssetClass',
  kind: 'mutation',
  summary: 'Create an asset class',
  access: members([...WRITERS], { objectScope: false }),
  idempotency: 'required',
  input: {
    body: {
      code: ops.text(1, 64).describe('Unique within the organization among classes not in the trash.'),
      name: ops.text(1, 200),
      description: ops.text(0, 1000).default(''),
    },
  },
  output: AssetClass,
  rest: { method: 'POST', path: '/api/v1/eam/asset-classes', status: 201 },
  errors: [EamErrorCode.ASSET_CLASS_CODE_TAKEN],
});

export const eamDeleteAssetClass = defineOperation({
  ...base,
  name: 'eamDeleteAssetClass',
  kind: 'mutation',
  summary: 'Move an asset class to the trash',
  description: 'Only while no asset is of this class; it can be restored from `/api/v1/core/trash/asset-classes`.',
  access: members([...WRITERS], { objectScope: false }),
  input: { path: { id: ops.id() } },
  output: z.object({ id: z.uuid(), deletedAt: z.string().describe('ISO 8601.') }).meta({ id: 'DeletedAssetClass' }),
  rest: { method: 'DELETE', path: '/api/v1/eam/asset-classes/:id' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND, EamErrorCode.ASSET_CLASS_IN_USE],
});

export const ASSET_CLASS_CONTRACTS = [eamListAssetClasses, eamCreateAssetClass, eamDeleteAssetClass] as const;
