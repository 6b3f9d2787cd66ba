import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { HrErrorCode } from './errors.js';
import { dateSince, EVERY_ROLE, Personnel, PersonnelStatus } from './types.js';

/** Personnel (seed 002, Personnel and brigades): hiring, the card, moves between objects and statuses. */

const base = { service: 'operations', tags: ['hr: personnel'] } as const;
const PATH = '/api/v1/hr/personnel';
const byId = { id: ops.id() };
const NOT_FOUND = OperationsErrorCode.RECORD_NOT_FOUND;
const CONFLICT = OperationsErrorCode.STATE_CONFLICT;

export const hrListPersonnel = defineOperation({
  ...base,
  name: 'hrListPersonnel',
  kind: 'query',
  summary: 'List personnel',
  description: 'Sorted by full name; object-scoped roles see the employees of their production objects.',
  access: members(EVERY_ROLE),
  input: { query: { objectId: ops.id().optional(), status: PersonnelStatus.optional(), positionId: ops.id().optional() } },
  output: Personnel,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const hrHirePersonnel = defineOperation({
  ...base,
  name: 'hrHirePersonnel',
  kind: 'mutation',
  summary: 'Hire an employee',
  description: 'The employee starts `active`; `tabNumber` is unique in the organization.',
  access: members(['Admin']),
  idempotency: 'required',
  input: {
    body: {
      fullName: ops.text(1, 200),
      tabNumber: ops.text(1, 50),
      positionId: ops.ref('hr.position'),
      hiredAt: dateSince('1990-01-01'),
      birthDate: dateSince('1900-01-01').optional(),
      objectId: ops.ref('core.production-object').optional(),
      phone: ops.text(0, 50).optional(),
      email: z.email().max(254).optional(),
    },
  },
  output: Personnel,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [HrErrorCode.HR_TAB_NUMBER_TAKEN, HrErrorCode.HR_REFERENCE_NOT_FOUND],
});

export const hrGetPersonnel = defineOperation({
  ...base,
  name: 'hrGetPersonnel',
  kind: 'query',
  summary: 'Employee card',
  access: members(EVERY_ROLE),
  input: { path: byId },
  output: Personnel,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: [NOT_FOUND],
});

export const hrUpdatePersonnel = defineOperation({
  ...base,
  name: 'hrUpdatePersonnel',
  kind: 'mutation',
  summary: 'Correct an employee’s card',
  description:
    'Our design (the seed leaves personnel updates out): the card’s own fields only; the object changes by a transfer, the status by its transitions. `null` clears an optional field.',
  access: members(['Admin']),
  idempotency: 'required',
  input: {
    path: byId,
    body: {
      fullName: ops.text(1, 200).optional(),
      tabNumber: ops.text(1, 50).optional(),
      positionId: ops.ref('hr.position').optional(),
      birthDate: dateSince('1900-01-01').nullable().optional(),
      phone: ops.text(0, 50).nullable().optional(),
      email: z.email().max(254).nullable().optional(),
    },
  },
  output: Personnel,
  rest: { method: 'PATCH', path: `${PATH}/:id` },
  errors: [NOT_FOUND, HrErrorCode.HR_TAB_NUMBER_TAKEN, HrErrorCode.HR_REFERENCE_NOT_FOUND],
});

export const hrTransferPersonnel = defineOperation({
  ...base,
  name: 'hrTransferPersonnel',
  kind: 'mutation',
  summary: 'Transfer an employee to another production object',
  description:
    'Recorded with its reason and date (`effectiveFrom`, default today). An active membership in a brigade of another object is closed, and the employee stops leading brigades of other objects, in the same transaction.',
  access: members(['Admin', 'Engineer']),
  idempotency: 'required',
  input: {
    path: byId,
    body: { toObjectId: ops.ref('core.production-object'), reason: ops.text(1, 1000), effectiveFrom: ops.date().optional() },
  },
  output: Personnel,
  rest: { method: 'POST', path: `${PATH}/:id/transfer` },
  errors: [NOT_FOUND, CONFLICT, HrErrorCode.HR_REFERENCE_NOT_FOUND, HrErrorCode.HR_SAME_OBJECT],
});

/** A status transition of the seed's table. */
function transition<const B extends Record<string, z.ZodType>>(declaration: {
  name: string;
  verb: string;
  summary: string;
  description?: string;
  roles: Parameters<typeof members>[0];
  body: B;
  errors?: Parameters<typeof defineOperation>[0]['errors'];
}) {
  return defineOperation({
    ...base,
    name: declaration.name,
    kind: 'mutation',
    summary: declaration.summary,
    description: declaration.description,
    access: members(declaration.roles),
    idempotency: 'required',
    input: { path: byId, body: declaration.body },
    output: Personnel,
    rest: { method: 'POST', path: `${PATH}/:id/${declaration.verb}` },
    errors: declaration.errors ?? [NOT_FOUND, CONFLICT],
  });
}

const WATCH_ROLES = ['Engineer', 'Foreman', 'Admin'] as const;

export const hrArriveOnWatch = transition({
  name: 'hrArriveOnWatch',
  verb: 'arrive-on-watch',
  summary: 'Arrive on watch (active → onWatch)',
  roles: WATCH_ROLES,
  body: { arrivalDate: ops.date().optional().describe('Default today.') },
});

export const hrLeaveWatch = transition({
  name: 'hrLeaveWatch',
  verb: 'leave-watch',
  summary: 'Leave watch (onWatch → active)',
  roles: WATCH_ROLES,
  body: {},
});

export const hrGoOnVacation = transition({
  name: 'hrGoOnVacation',
  verb: 'go-on-vacation',
  summary: 'Go on vacation (active → onVacation)',
  roles: ['Admin'],
  body: { expectedReturnDate: ops.date() },
});

export const hrReturnFromVacation = transition({
  name: 'hrReturnFromVacation',
  verb: 'return-from-vacation',
  summary: 'Return from vacation (onVacation → active)',
  roles: ['Admin'],
  body: {},
});

export const hrTerminatePersonnel = transition({
  name: 'hrTerminatePersonnel',
  verb: 'terminate',
  summary: 'Terminate an employee (active, onWatch or onVacation → terminated)',
  description:
    'Refused (409 `HR_OPEN_ASSIGNMENTS`, listing them) while the employee has open assignments — an active brigade membership, the lead of an active brigade, a draft shift report — unless `force`, which closes them in the same transaction.',
  roles: ['Admin'],
  body: {
    reason: ops.text(1, 500),
    terminatedAt: ops.date().optional().describe('Default today; not before the hiring date.'),
    force: z.boolean().default(false).describe('Close open assignments instead of refusing.'),
  },
  errors: [NOT_FOUND, CONFLICT, HrErrorCode.HR_OPEN_ASSIGNMENTS, HrErrorCode.HR_DATE_ORDER],
});

export const PERSONNEL_CONTRACTS = [
  hrListPersonnel,
  hrHirePersonnel,
  hrGetPersonnel,
  hrUpdatePersonnel,
  hrTransferPersonnel,
  hrArriveOnWatch,
  hrLeaveWatch,
  hrGoOnVacation,
  hrReturnFromVacation,
  hrTerminatePersonnel,
] as const;
