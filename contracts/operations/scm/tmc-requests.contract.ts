import { z } from 'zod';
import { members, type OperationsRole } from '../../access.js';
import { defineOperation, type Shape } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { ScmErrorCode } from './errors.js';
import { REQUEST_APPROVERS, REQUEST_FULFILLERS, REQUESTERS, STOCK_READERS } from './roles.js';
import { lines, TmcLineInput } from './stock-inputs.js';
import { TmcRequest, TmcRequestStatus } from './stock-types.js';
import { reasonText } from './texts.js';

/**
 * TMC requests: draft → sent → approved (Engineer or Admin) / rejected / returned to
 * draft → in_progress → fulfilled with the receipts that answered it.
 */

const base = { service: 'operations', tags: ['scm: stock'] } as const;
const PATH = '/api/v1/scm/tmc/requests';
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];

export const scmListTmcRequests = defineOperation({
  ...base,
  name: 'scmListTmcRequests',
  kind: 'query',
  summary: 'List TMC requests',
  description: 'Newest first.',
  access: members(STOCK_READERS),
  input: { query: { status: TmcRequestStatus.optional(), warehouseId: ops.id().optional() } },
  output: TmcRequest,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const scmCreateTmcRequest = defineOperation({
  ...base,
  name: 'scmCreateTmcRequest',
  kind: 'mutation',
  summary: 'Create a TMC request (draft)',
  access: members(REQUESTERS),
  idempotency: 'required',
  input: { body: { warehouseId: ops.ref('scm.warehouse'), justification: ops.text(3, 2000), lines: lines(TmcLineInput) } },
  output: TmcRequest,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [...NOT_FOUND, ScmErrorCode.TMC_ITEM_INACTIVE],
});

export const scmGetTmcRequest = defineOperation({
  ...base,
  name: 'scmGetTmcRequest',
  kind: 'query',
  summary: 'TMC request card',
  access: members(STOCK_READERS),
  input: { path: { id: ops.id() } },
  output: TmcRequest,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: NOT_FOUND,
});

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const move = <const B extends Shape = {}>(name: string, verb: string, summary: string, roles: readonly OperationsRole[], body?: B) =>
  defineOperation({
    ...base,
    name,
    kind: 'mutation',
    summary,
    access: members(roles),
    idempotency: 'required',
    input: { path: { id: ops.id() }, body: body ?? ({} as B) },
    output: TmcRequest,
    rest: { method: 'POST', path: `${PATH}/:id/${verb}` },
    errors: [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT],
  });

export const scmSubmitTmcRequest = move('scmSubmitTmcRequest', 'submit', 'Send a draft request (to sent)', REQUESTERS);
export const scmApproveTmcRequest = move('scmApproveTmcRequest', 'approve', 'Approve a sent request', REQUEST_APPROVERS);
export const scmRejectTmcRequest = move('scmRejectTmcRequest', 'reject', 'Reject a sent request', REQUEST_APPROVERS, {
  reason: reasonText(3, 500, 'Stock is enough until next month'),
});
export const scmReturnTmcRequest = move('scmReturnTmcRequest', 'return', 'Return a sent request for rework (to draft)', REQUEST_APPROVERS, {
  comment: reasonText(3, 500, 'Give the drill bit diameters'),
});
export const scmStartTmcRequest = move('scmStartTmcRequest', 'start', 'Take an approved request into work', REQUEST_FULFILLERS);

export const scmCloseTmcRequest = defineOperation({
  ...base,
  name: 'scmCloseTmcRequest',
  kind: 'mutation',
  summary: 'Close a request in work (to fulfilled)',
  description: '`linkedInboundIds`: the receipts into the request’s warehouse that fulfilled it.',
  access: members(REQUEST_FULFILLERS),
  idempotency: 'required',
  input: { path: { id: ops.id() }, body: { linkedInboundIds: z.array(ops.ref('scm.tmc-receipt')).min(1).max(100) } },
  output: TmcRequest,
  rest: { method: 'POST', path: `${PATH}/:id/close` },
  errors: [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT, ScmErrorCode.TMC_LINKED_RECEIPT_INVALID],
});

export const TMC_REQUEST_CONTRACTS = [
  scmListTmcRequests,
  scmCreateTmcRequest,
  scmGetTmcRequest,
  scmSubmitTmcRequest,
  scmApproveTmcRequest,
  scmRejectTmcRequest,
  scmReturnTmcRequest,
  scmStartTmcRequest,
  scmCloseTmcRequest,
];
