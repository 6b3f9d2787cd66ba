import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { ScmErrorCode } from './errors.js';
import { STOCK_KEEPERS, STOCK_READERS } from './roles.js';
import { documentReference, lines, TmcInventoryCountInput } from './stock-inputs.js';
import { TmcInventory, TmcInventoryStatus } from './stock-types.js';

/**
 * Inventories: starting one snapshots the warehouse's balances; completing it with the
 * counted quantities writes an `inventory_adjustment` movement for each nonzero variance.
 */

const base = { service: 'operations', tags: ['scm: stock'] } as const;
const PATH = '/api/v1/scm/tmc/inventories';
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];

export const scmListTmcInventories = defineOperation({
  ...base,
  name: 'scmListTmcInventories',
  kind: 'query',
  summary: 'List inventories',
  description: 'Newest first.',
  access: members(STOCK_READERS),
  input: { query: { status: TmcInventoryStatus.optional(), warehouseId: ops.id().optional() } },
  output: TmcInventory,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const scmStartTmcInventory = defineOperation({
  ...base,
  name: 'scmStartTmcInventory',
  kind: 'mutation',
  summary: 'Start an inventory',
  description: 'One line per balance of the warehouse, with the quantity on hand now; one inventory in progress per warehouse.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: { body: { warehouseId: ops.ref('scm.warehouse'), inventoryDate: ops.date(), documentReference: documentReference() } },
  output: TmcInventory,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [...NOT_FOUND, ScmErrorCode.TMC_INVENTORY_IN_PROGRESS],
});

export const scmGetTmcInventory = defineOperation({
  ...base,
  name: 'scmGetTmcInventory',
  kind: 'query',
  summary: 'Inventory card',
  access: members(STOCK_READERS),
  input: { path: { id: ops.id() } },
  output: TmcInventory,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: NOT_FOUND,
});

export const scmCompleteTmcInventory = defineOperation({
  ...base,
  name: 'scmCompleteTmcInventory',
  kind: 'mutation',
  summary: 'Complete an inventory with the counted quantities',
  description:
    'Lines left out were counted as expected. Each nonzero variance (actual − snapshot) adjusts the balance by an `inventory_adjustment` movement; an adjustment that would take stock below zero refuses the completion.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: { path: { id: ops.id() }, body: { lines: lines(TmcInventoryCountInput) } },
  output: TmcInventory,
  rest: { method: 'POST', path: `${PATH}/:id/complete` },
  errors: [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT, ScmErrorCode.TMC_INSUFFICIENT_STOCK],
});

export const TMC_INVENTORY_CONTRACTS = [scmListTmcInventories, scmStartTmcInventory, scmGetTmcInventory, scmCompleteTmcInventory];
