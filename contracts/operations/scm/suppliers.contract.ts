import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { ScmErrorCode } from './errors.js';
import { kz } from './kz-identifiers.js';
import { SUPPLIER_ACTIVATORS, SUPPLIER_KEEPERS, SUPPLIER_READERS, SUPPLIER_STEWARDS } from './roles.js';
import { Supplier, SupplierStatus, SuspendedReason } from './supplier-types.js';
import { reasonText, searchText } from './texts.js';

/**
 * Supplier cards and their lifecycle: draft → submit → activate → suspend ⇄ unblock, and
 * archive (terminal). Create, read, list, submit and activate are our design (docs/adr/0012);
 * suspend, unblock and archive follow the seed.
 */

const base = { service: 'operations', tags: ['scm: suppliers'] } as const;
const PATH = '/api/v1/scm/suppliers';
const byId = { id: ops.id() };
const objectFree = { objectScope: false } as const;
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];
const TRANSITION_ERRORS = [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT];

export const scmCreateSupplier = defineOperation({
  ...base,
  name: 'scmCreateSupplier',
  kind: 'mutation',
  summary: 'Create a supplier (draft)',
  description:
    'At least one of `bin` and `iin`; each is checked by its check digit and unique among the organization’s suppliers not archived.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  idempotency: 'required',
  input: {
    body: {
      bin: kz.taxId('BIN').nullable().optional(),
      iin: kz.taxId('IIN').nullable().optional(),
      legalName: ops.text(1, 500),
      shortName: ops.text(1, 200).nullable().optional(),
      legalAddress: ops.text(1, 1000).nullable().optional(),
      legalFormCode: ops.text(1, 16).nullable().optional().describe('Legal form, e.g. `TOO`, `AO`, `IP`.'),
      countryCode: z
        .string()
        .regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code' })
        .default('KZ'),
      categories: z.array(ops.text(1, 64)).max(20).default([]).describe('What the supplier delivers, e.g. TMC category codes.'),
    },
  },
  output: Supplier,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [OperationsErrorCode.BUSINESS_KEY_TAKEN],
});

export const scmListSuppliers = defineOperation({
  ...base,
  name: 'scmListSuppliers',
  kind: 'query',
  summary: 'List suppliers',
  description: 'By legal name; `q` matches the legal or short name, BIN or IIN.',
  access: members(SUPPLIER_READERS, objectFree),
  input: { query: { status: SupplierStatus.optional(), q: searchText() } },
  output: Supplier,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const scmGetSupplier = defineOperation({
  ...base,
  name: 'scmGetSupplier',
  kind: 'query',
  summary: 'Supplier card',
  access: members(SUPPLIER_READERS, objectFree),
  input: { path: byId },
  output: Supplier,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: NOT_FOUND,
});

export const scmSubmitSupplier = defineOperation({
  ...base,
  name: 'scmSubmitSupplier',
  kind: 'mutation',
  summary: 'Submit a draft supplier for activation',
  description: 'The card stays `draft` with `submittedAt` and `submittedBy` set; only a submitted draft can be activated.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  idempotency: 'required',
  input: { path: byId },
  output: Supplier,
  rest: { method: 'POST', path: `${PATH}/:id/submit` },
  errors: TRANSITION_ERRORS,
});

export const scmActivateSupplier = defineOperation({
  ...base,
  name: 'scmActivateSupplier',
  kind: 'mutation',
  summary: 'Activate a submitted supplier',
  access: members(SUPPLIER_ACTIVATORS, objectFree),
  idempotency: 'required',
  input: { path: byId },
  output: Supplier,
  rest: { method: 'POST', path: `${PATH}/:id/activate` },
  errors: TRANSITION_ERRORS,
});

export const scmSuspendSupplier = defineOperation({
  ...base,
  name: 'scmSuspendSupplier',
  kind: 'mutation',
  summary: 'Suspend an active supplier',
  access: members(SUPPLIER_STEWARDS, objectFree),
  idempotency: 'required',
  input: {
    path: byId,
    body: { suspendedReason: SuspendedReason, suspendedReasonText: reasonText(10, 1000, 'Two deliveries paid late this quarter') },
  },
  output: Supplier,
  rest: { method: 'POST', path: `${PATH}/:id/suspend` },
  errors: TRANSITION_ERRORS,
});

export const scmUnblockSupplier = defineOperation({
  ...base,
  name: 'scmUnblockSupplier',
  kind: 'mutation',
  summary: 'Unblock a suspended supplier (to active)',
  access: members(SUPPLIER_STEWARDS, objectFree),
  idempotency: 'required',
  input: { path: byId, body: { reason: reasonText(10, 1000, 'Debt settled, deliveries resume') } },
  output: Supplier,
  rest: { method: 'POST', path: `${PATH}/:id/unblock` },
  errors: TRANSITION_ERRORS,
});

export const scmArchiveSupplier = defineOperation({
  ...base,
  name: 'scmArchiveSupplier',
  kind: 'mutation',
  summary: 'Archive a supplier (terminal)',
  description: 'An active or suspended supplier needs `coApprovedBy`: an active Admin or CEO of the organization other than the actor.',
  access: members(SUPPLIER_STEWARDS, objectFree),
  idempotency: 'required',
  input: {
    path: byId,
    body: {
      archivedReason: reasonText(10, 1000, 'The company was liquidated'),
      coApprovedBy: ops.ref('iam.user').nullable().optional().describe('The second approver’s user id.'),
    },
  },
  output: Supplier,
  rest: { method: 'POST', path: `${PATH}/:id/archive` },
  errors: [...TRANSITION_ERRORS, ScmErrorCode.SUPPLIER_CO_APPROVER_REQUIRED, ScmErrorCode.SUPPLIER_CO_APPROVER_INVALID],
});

export const SUPPLIER_CONTRACTS = [
  scmCreateSupplier,
  scmListSuppliers,
  scmGetSupplier,
  scmSubmitSupplier,
  scmActivateSupplier,
  scmSuspendSupplier,
  scmUnblockSupplier,
  scmArchiveSupplier,
];
