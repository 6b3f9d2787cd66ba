import { z } from 'zod';
import { members, type OperationsRole } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { PrdErrorCode } from './errors.js';
import {
  ShiftReport,
  ShiftReportApproval,
  ShiftReportChildren,
  ShiftReportDeleted,
  ShiftReportReversal,
  ShiftReportStatus,
  ShiftType,
} from './types.js';

/**
 * Shift reports (seed 002, Shift reports (PRD); paths per OPERATIONS-API.md): draft → submitted →
 * approved by the six-step approval saga, or rejected; an approved report is reversed by the
 * reverse saga `prd.shift-report.reject-after-approve`, which ends it rejected (docs/adr/0017).
 */

/** Roles the seed gives the list; the card and the snapshot follow it (docs/adr/0017). */
export const PRD_READERS: readonly OperationsRole[] = ['Engineer', 'Foreman', 'CEO'];
/** Who drafts reports and fills them in: those who submit them. */
export const PRD_AUTHORS: readonly OperationsRole[] = ['Foreman', 'Engineer'];
const DECIDERS: readonly OperationsRole[] = ['Engineer', 'CEO'];

const base = { service: 'operations', tags: ['prd: shift reports'] } as const;
const byId = { id: ops.id() };
const PATH = '/api/v1/prd/shift-reports';
const CONFLICT = [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT];
const SAGA = [...CONFLICT, OperationsErrorCode.SAGA_ALREADY_RUNNING];

export const prdListShiftReports = defineOperation({
  ...base,
  name: 'prdListShiftReports',
  kind: 'query',
  summary: 'List shift reports',
  description:
    'Newest first (`createdAt` descending). `shiftDateFrom`/`shiftDateTo` bound `shiftDate` (both inclusive). Foremen see the reports of their production objects.',
  access: members(PRD_READERS),
  input: {
    query: {
      status: ShiftReportStatus.optional(),
      productionObjectId: ops.id().optional(),
      shiftDateFrom: ops.date().optional(),
      shiftDateTo: ops.date().optional(),
    },
  },
  output: ShiftReport,
  paging: { ...cursorPaging(100, 20), cursor: 'The `id` of the previous page’s last report (`nextCursor`).' },
  rest: { method: 'GET', path: PATH },
});

export const prdCreateShiftReport = defineOperation({
  ...base,
  name: 'prdCreateShiftReport',
  kind: 'mutation',
  summary: 'Create a draft shift report',
  description:
    'One report per organization, production object, date and shift type: 409 `PRD_SHIFT_REPORT_DUPLICATE` while another is not rejected; after a rejection a new draft may be created.',
  access: members(PRD_AUTHORS),
  idempotency: 'required',
  input: { body: { productionObjectId: ops.ref('core.production-object'), shiftDate: ops.date(), shiftType: ShiftType } },
  output: ShiftReport,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [PrdErrorCode.PRD_SHIFT_REPORT_DUPLICATE, PrdErrorCode.PRD_REFERENCE_NOT_FOUND],
});

export const prdGetShiftReport = defineOperation({
  ...base,
  name: 'prdGetShiftReport',
  kind: 'query',
  summary: 'Shift report',
  description: '404 when missing, of another organization or, for a Foreman, of another production object.',
  access: members(PRD_READERS),
  input: { path: byId },
  output: ShiftReport,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const prdShiftReportChildren = defineOperation({
  ...base,
  name: 'prdShiftReportChildren',
  kind: 'query',
  summary: 'Snapshot of a shift report’s entries',
  description: 'Every entry of the report by kind, each list oldest first.',
  access: members(PRD_READERS),
  input: { path: byId },
  output: ShiftReportChildren,
  rest: { method: 'GET', path: `${PATH}/:id/children` },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const prdSubmitShiftReport = defineOperation({
  ...base,
  name: 'prdSubmitShiftReport',
  kind: 'mutation',
  summary: 'Submit a shift report',
  description: 'Draft to submitted; its entries can no longer change.',
  access: members(PRD_AUTHORS),
  idempotency: 'required',
  input: { path: byId },
  output: ShiftReport,
  rest: { method: 'POST', path: `${PATH}/:id/submit` },
  errors: CONFLICT,
});

export const prdDeleteShiftReport = defineOperation({
  ...base,
  name: 'prdDeleteShiftReport',
  kind: 'mutation',
  summary: 'Delete a draft shift report',
  description:
    'The report and all its entries are deleted for good (reports have no trash); the shift can be reported again. Only a draft (409 `STATE_CONFLICT` otherwise), and only by its author or an Engineer (403 `FORBIDDEN` for another Foreman).',
  access: members(PRD_AUTHORS),
  idempotency: 'required',
  input: { path: byId },
  output: ShiftReportDeleted,
  rest: { method: 'DELETE', path: `${PATH}/:id` },
  errors: CONFLICT,
});

export const prdApproveShiftReport = defineOperation({
  ...base,
  name: 'prdApproveShiftReport',
  kind: 'mutation',
  summary: 'Approve a shift report',
  description:
    'Starts the approval saga `prd.shift-report.approve` on a submitted report: fuel issued from the tanks, materials written off stock, machine hours and meters, availability and utilization coefficients, production statistics, timesheet. The report becomes `approved` when the saga completes; when a step keeps failing the done steps are compensated and the report stays `submitted`. Follow it at `/api/v1/sagas/{sagaId}/status` or with `sagaProgress`.',
  access: members(DECIDERS),
  idempotency: 'required',
  input: { path: byId },
  output: ShiftReportApproval,
  rest: { method: 'POST', path: `${PATH}/:id/approve`, status: 202 },
  errors: SAGA,
});

export const prdRejectShiftReport = defineOperation({
  ...base,
  name: 'prdRejectShiftReport',
  kind: 'mutation',
  summary: 'Reject a submitted shift report',
  description:
    'Submitted to rejected, no saga; the reason goes to the audit log and to the event `prd.shift-report.rejected`. A new draft for the same shift may then be created. 409 `SAGA_ALREADY_RUNNING` while its approval runs.',
  access: members(DECIDERS),
  idempotency: 'required',
  input: { path: byId, body: { reason: z.string().trim().min(5).max(500) } },
  output: ShiftReport,
  rest: { method: 'POST', path: `${PATH}/:id/reject` },
  errors: SAGA,
});

export const prdReverseShiftReport = defineOperation({
  ...base,
  name: 'prdReverseShiftReport',
  kind: 'mutation',
  summary: 'Reverse an approved shift report',
  description:
    'Starts the reverse saga `prd.shift-report.reject-after-approve`, which undoes the six effects of the approval (fuel, materials, machine hours, coefficients, statistics, timesheet) and ends the report `rejected` with the reason. CEO only: the platform super-admin may not reverse a report either (seed 002, Authentication 4).',
  access: members(['CEO'], { superAdmin: 'never' }),
  idempotency: 'required',
  input: { path: byId, body: { reason: z.string().trim().min(10).max(500) } },
  output: ShiftReportReversal,
  rest: { method: 'POST', path: `${PATH}/:id/reverse`, status: 202 },
  errors: SAGA,
});

export const SHIFT_REPORT_CONTRACTS = [
  prdListShiftReports,
  prdCreateShiftReport,
  prdGetShiftReport,
  prdShiftReportChildren,
  prdSubmitShiftReport,
  prdDeleteShiftReport,
  prdApproveShiftReport,
  prdRejectShiftReport,
  prdReverseShiftReport,
] as const;
