import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { decimals } from './decimals.js';
import { STOCK_KEEPERS, STOCK_READERS } from './roles.js';
import { StockBalance, Warehouse } from './stock-types.js';

/**
 * Warehouses (our design, docs/adr/0012): each belongs to a production object, so
 * Foreman and Mechanic see only their objects' warehouses and stock. Minimums per item and
 * warehouse drive `onlyLowStock` of the balances.
 */

const base = { service: 'operations', tags: ['scm: stock'] } as const;
const PATH = '/api/v1/scm/warehouses';
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];

export const scmListWarehouses = defineOperation({
  ...base,
  name: 'scmListWarehouses',
  kind: 'query',
  summary: 'List warehouses',
  description: 'By code; Foreman and Mechanic see their production objects’ warehouses only.',
  access: members(STOCK_READERS),
  input: { query: { objectId: ops.id().optional(), active: z.boolean().optional() } },
  output: Warehouse,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const scmCreateWarehouse = defineOperation({
  ...base,
  name: 'scmCreateWarehouse',
  kind: 'mutation',
  summary: 'Create a warehouse at a production object',
  description: '`code` is unique within the organization.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: { body: { objectId: ops.ref('core.production-object'), code: ops.text(1, 64), name: ops.text(1, 200) } },
  output: Warehouse,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [...NOT_FOUND, OperationsErrorCode.BUSINESS_KEY_TAKEN],
});

export const scmGetWarehouse = defineOperation({
  ...base,
  name: 'scmGetWarehouse',
  kind: 'query',
  summary: 'Warehouse card',
  access: members(STOCK_READERS),
  input: { path: { id: ops.id() } },
  output: Warehouse,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: NOT_FOUND,
});

export const scmSetWarehouseMinStock = defineOperation({
  ...base,
  name: 'scmSetWarehouseMinStock',
  kind: 'mutation',
  summary: 'Set the minimum stock of an item in a warehouse',
  description: 'A balance below its minimum is low stock (`onlyLowStock`); null removes the minimum. Audited.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: { path: { id: ops.id() }, body: { itemId: ops.ref('scm.tmc-item'), minQuantity: decimals.count().nullable() } },
  output: StockBalance,
  rest: { method: 'POST', path: `${PATH}/:id/min-stock` },
  errors: NOT_FOUND,
});

export const scmTmcBalances = defineOperation({
  ...base,
  name: 'scmTmcBalances',
  kind: 'query',
  summary: 'Stock balances',
  description: 'One row per item and warehouse, in `id` order (the cursor is the last `id`).',
  access: members(STOCK_READERS),
  input: {
    query: {
      warehouseId: ops.id().optional(),
      itemId: ops.id().optional(),
      onlyLowStock: z.boolean().default(false).describe('Only balances below their minimum.'),
    },
  },
  output: StockBalance,
  paging: { ...cursorPaging(500, 100), cursor: 'The `id` (UUID) of the previous page’s last balance.' },
  rest: { method: 'GET', path: '/api/v1/scm/tmc/balances' },
});

export const WAREHOUSE_CONTRACTS = [scmListWarehouses, scmCreateWarehouse, scmGetWarehouse, scmSetWarehouseMinStock, scmTmcBalances];
