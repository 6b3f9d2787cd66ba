import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { decimals } from './decimals.js';
import { ScmErrorCode } from './errors.js';
import { STOCK_KEEPERS, STOCK_READERS } from './roles.js';
import { TmcCategory, TmcItem, TmcUnit } from './stock-types.js';
import { searchText } from './texts.js';

/** TMC items (materials): the nomenclature, with their purchase and weighted average prices. */

const base = { service: 'operations', tags: ['scm: stock'] } as const;
const PATH = '/api/v1/scm/tmc/items';
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];

export const scmListTmcItems = defineOperation({
  ...base,
  name: 'scmListTmcItems',
  kind: 'query',
  summary: 'List TMC items',
  description: 'By nomenclature code; `q` matches the code or the name.',
  access: members(STOCK_READERS),
  input: { query: { category: TmcCategory.optional(), active: z.boolean().optional(), q: searchText() } },
  output: TmcItem,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const scmCreateTmcItem = defineOperation({
  ...base,
  name: 'scmCreateTmcItem',
  kind: 'mutation',
  summary: 'Create a TMC item',
  description: '`nomenclatureCode` is unique within the organization; `initialPrice` starts both prices.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: {
    body: {
      nomenclatureCode: ops.text(1, 64),
      name: ops.text(2, 500),
      category: TmcCategory,
      unit: TmcUnit,
      assetClassId: ops.ref('eam.asset-class').nullable().optional().describe('The asset class the item serves, or null.'),
      initialPrice: decimals.price().optional(),
    },
  },
  output: TmcItem,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [OperationsErrorCode.BUSINESS_KEY_TAKEN],
});

export const scmGetTmcItem = defineOperation({
  ...base,
  name: 'scmGetTmcItem',
  kind: 'query',
  summary: 'TMC item card',
  access: members(STOCK_READERS),
  input: { path: { id: ops.id() } },
  output: TmcItem,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: NOT_FOUND,
});

export const scmUpdateTmcItem = defineOperation({
  ...base,
  name: 'scmUpdateTmcItem',
  kind: 'mutation',
  summary: 'Update a TMC item',
  description: 'Fields left out stay as they are.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: {
    path: { id: ops.id() },
    body: { name: ops.text(2, 500).optional(), assetClassId: ops.ref('eam.asset-class').nullable().optional() },
  },
  output: TmcItem,
  rest: { method: 'PATCH', path: `${PATH}/:id` },
  errors: NOT_FOUND,
});

export const scmDeactivateTmcItem = defineOperation({
  ...base,
  name: 'scmDeactivateTmcItem',
  kind: 'mutation',
  summary: 'Take a TMC item out of accounting',
  description: 'Only with no stock left in any warehouse; a second call answers 409 `STATE_CONFLICT`.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: { path: { id: ops.id() } },
  output: TmcItem,
  rest: { method: 'POST', path: `${PATH}/:id/deactivate` },
  errors: [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT, ScmErrorCode.TMC_ITEM_HAS_STOCK],
});

export const TMC_ITEM_CONTRACTS = [scmListTmcItems, scmCreateTmcItem, scmGetTmcItem, scmUpdateTmcItem, scmDeactivateTmcItem];
