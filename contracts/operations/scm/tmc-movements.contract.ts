import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { ops, requiredCursorPaging } from '../fields.js';
import { ScmErrorCode } from './errors.js';
import { STOCK_KEEPERS, STOCK_READERS, STOCK_WRITERS_OFF } from './roles.js';
import { documentNumber, documentReference, lines, TmcLineInput, TmcReceiptLineInput } from './stock-inputs.js';
import { TmcReceiptResult, TmcTransfer, TmcWriteOffResult } from './stock-types.js';

/**
 * Documents that move stock: receipts (stock up, prices updated), manual write-off acts
 * (stock down, never below zero) and transfers (issue takes from the source, confirm puts
 * into the target). Each line is a movement; every amount is computed in PostgreSQL.
 */

const base = { service: 'operations', tags: ['scm: stock'] } as const;
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];
const TRANSFERS = '/api/v1/scm/tmc/transfers';

export const scmRegisterTmcReceipt = defineOperation({
  ...base,
  name: 'scmRegisterTmcReceipt',
  kind: 'mutation',
  summary: 'Register a receipt',
  description:
    'Stock goes up by each line; each item’s weighted average price is recomputed over the stock of the whole organization and its last purchase price set. `source: supplier` needs an active `supplierId`.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: {
    body: {
      warehouseId: ops.ref('scm.warehouse'),
      source: z.enum(['supplier', 'transfer', 'return']).meta({ id: 'TmcReceiptSource' }),
      supplierId: ops.ref('scm.supplier').nullable().optional(),
      inboundDate: ops.date(),
      documentNumber: documentNumber(),
      documentReference: documentReference(),
      requestId: ops.ref('scm.tmc-request').nullable().optional().describe('The TMC request the goods answer, or null.'),
      receivedById: ops.ref('hr.personnel').describe('The employee (personnel id) who received the goods.'),
      lines: lines(TmcReceiptLineInput),
    },
  },
  output: TmcReceiptResult,
  rest: { method: 'POST', path: '/api/v1/scm/tmc/receipts', status: 201 },
  errors: [...NOT_FOUND, ScmErrorCode.SUPPLIER_NOT_ACTIVE, ScmErrorCode.TMC_ITEM_INACTIVE],
});

export const scmWriteOffTmc = defineOperation({
  ...base,
  name: 'scmWriteOffTmc',
  kind: 'mutation',
  summary: 'Manual write-off act',
  description:
    'Stock goes down by each line, valued at the item’s weighted average price; a line taking more than the balance refuses the whole act (422).',
  access: members(STOCK_WRITERS_OFF),
  idempotency: 'required',
  input: {
    body: {
      warehouseId: ops.ref('scm.warehouse'),
      assetId: ops.ref('eam.asset').nullable().optional().describe('The asset the materials went into, or null.'),
      targetObjectId: ops.ref('core.production-object').describe('The production object the materials are used for.'),
      reason: z.enum(['planned_to', 'repair', 'production', 'loss']).meta({ id: 'TmcWriteOffReason' }),
      documentReference: documentReference(),
      occurredAt: ops.dateTime(),
      lines: lines(TmcLineInput),
    },
  },
  output: TmcWriteOffResult,
  rest: { method: 'POST', path: '/api/v1/scm/tmc/write-offs', status: 201 },
  errors: [...NOT_FOUND, ScmErrorCode.TMC_INSUFFICIENT_STOCK],
});

export const scmListTmcTransfers = defineOperation({
  ...base,
  name: 'scmListTmcTransfers',
  kind: 'query',
  summary: 'List transfers',
  description: 'Newest first; `warehouseId` matches the source or the target.',
  access: members(STOCK_READERS),
  input: { query: { status: TmcTransfer.shape.status.optional(), warehouseId: ops.id().optional() } },
  output: TmcTransfer,
  paging: requiredCursorPaging(200),
  rest: { method: 'GET', path: TRANSFERS },
});

export const scmIssueTmcTransfer = defineOperation({
  ...base,
  name: 'scmIssueTmcTransfer',
  kind: 'mutation',
  summary: 'Issue a transfer',
  description: 'Stock leaves the source warehouse now and is in transit until the transfer is confirmed.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: {
    body: {
      fromWarehouseId: ops.ref('scm.warehouse'),
      toWarehouseId: ops.ref('scm.warehouse'),
      transferDate: ops.date(),
      documentNumber: documentNumber(),
      lines: lines(TmcLineInput),
    },
  },
  output: TmcTransfer,
  rest: { method: 'POST', path: TRANSFERS, status: 201 },
  errors: [...NOT_FOUND, ScmErrorCode.TMC_INSUFFICIENT_STOCK],
});

export const scmGetTmcTransfer = defineOperation({
  ...base,
  name: 'scmGetTmcTransfer',
  kind: 'query',
  summary: 'Transfer card',
  access: members(STOCK_READERS),
  input: { path: { id: ops.id() } },
  output: TmcTransfer,
  rest: { method: 'GET', path: `${TRANSFERS}/:id` },
  errors: NOT_FOUND,
});

export const scmConfirmTmcTransfer = defineOperation({
  ...base,
  name: 'scmConfirmTmcTransfer',
  kind: 'mutation',
  summary: 'Confirm a transfer',
  description: 'Stock arrives in the target warehouse.',
  access: members(STOCK_KEEPERS),
  idempotency: 'required',
  input: { path: { id: ops.id() }, body: { note: ops.text(0, 500).optional() } },
  output: TmcTransfer,
  rest: { method: 'POST', path: `${TRANSFERS}/:id/confirm` },
  errors: [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT],
});

export const TMC_MOVEMENT_CONTRACTS = [
  scmRegisterTmcReceipt,
  scmWriteOffTmc,
  scmListTmcTransfers,
  scmIssueTmcTransfer,
  scmGetTmcTransfer,
  scmConfirmTmcTransfer,
];
