import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { HrErrorCode } from './errors.js';
import { Brigade, BrigadeMembership, EVERY_ROLE, WorkType } from './types.js';

/**
 * Brigades (seed 002, Personnel and brigades): every role reads them; CEO, Engineer,
 * Admin and OtibSpecialist at every production object, every other role only at its
 * own; Engineer, Foreman and Admin manage them.
 */

const base = { service: 'operations', tags: ['hr: brigades'] } as const;
const PATH = '/api/v1/hr/brigades';
const byId = { id: ops.id() };
/** Seed 002, Authentication 3: these roles work across objects for brigades; the others see their own objects only. */
const ACROSS_OBJECTS = ['CEO', 'Engineer', 'Admin', 'OtibSpecialist'] as const;
const MANAGERS = members(['Engineer', 'Foreman', 'Admin'], { allObjects: ACROSS_OBJECTS });
const READERS = members(EVERY_ROLE, { allObjects: ACROSS_OBJECTS });
const NOT_FOUND = OperationsErrorCode.RECORD_NOT_FOUND;
const CONFLICT = OperationsErrorCode.STATE_CONFLICT;

export const hrListBrigades = defineOperation({
  ...base,
  name: 'hrListBrigades',
  kind: 'query',
  summary: 'List brigades',
  description: 'Sorted by name. CEO, Engineer, Admin and OtibSpecialist see every object; Foreman and Mechanic their own.',
  access: READERS,
  input: {
    query: {
      objectId: ops.id().optional(),
      workType: WorkType.optional(),
      isActive: z.boolean().default(true).describe('Active brigades (default) or disbanded ones.'),
    },
  },
  output: Brigade,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: PATH },
});

export const hrCreateBrigade = defineOperation({
  ...base,
  name: 'hrCreateBrigade',
  kind: 'mutation',
  summary: 'Create a brigade',
  access: MANAGERS,
  idempotency: 'required',
  input: {
    body: {
      name: ops.text(1, 200),
      objectId: ops.ref('core.production-object'),
      workType: WorkType,
      brigadierId: ops.ref('hr.personnel').nullable().optional().describe('An employee who is not terminated.'),
    },
  },
  output: Brigade,
  rest: { method: 'POST', path: PATH, status: 201 },
  errors: [HrErrorCode.HR_REFERENCE_NOT_FOUND, HrErrorCode.HR_PERSONNEL_TERMINATED],
});

export const hrGetBrigade = defineOperation({
  ...base,
  name: 'hrGetBrigade',
  kind: 'query',
  summary: 'Brigade card',
  access: READERS,
  input: { path: byId },
  output: Brigade,
  rest: { method: 'GET', path: `${PATH}/:id` },
  errors: [NOT_FOUND],
});

export const hrUpdateBrigade = defineOperation({
  ...base,
  name: 'hrUpdateBrigade',
  kind: 'mutation',
  summary: 'Update a brigade',
  description: 'Active brigades only; `brigadierId: null` removes the brigadier.',
  access: MANAGERS,
  idempotency: 'required',
  input: {
    path: byId,
    body: { name: ops.text(1, 200).optional(), workType: WorkType.optional(), brigadierId: ops.ref('hr.personnel').nullable().optional() },
  },
  output: Brigade,
  rest: { method: 'PATCH', path: `${PATH}/:id` },
  errors: [NOT_FOUND, CONFLICT, HrErrorCode.HR_REFERENCE_NOT_FOUND, HrErrorCode.HR_PERSONNEL_TERMINATED],
});

export const hrBrigadeRoster = defineOperation({
  ...base,
  name: 'hrBrigadeRoster',
  kind: 'query',
  summary: 'Active roster of a brigade',
  description: 'The memberships with `toDate` null, oldest first.',
  access: READERS,
  input: { path: byId },
  output: z.array(BrigadeMembership),
  rest: { method: 'GET', path: `${PATH}/:id/roster` },
  errors: [NOT_FOUND],
});

export const hrAddBrigadeMember = defineOperation({
  ...base,
  name: 'hrAddBrigadeMember',
  kind: 'mutation',
  summary: 'Add a member to a brigade',
  description:
    'An active membership of the employee in another brigade is closed (its `toDate` is `fromDate`) in the same transaction; the database holds at most one active membership per employee.',
  access: MANAGERS,
  idempotency: 'required',
  input: { path: byId, body: { personnelId: ops.ref('hr.personnel'), fromDate: ops.date().optional().describe('Default today.') } },
  output: BrigadeMembership,
  rest: { method: 'POST', path: `${PATH}/:id/members`, status: 201 },
  errors: [
    NOT_FOUND,
    CONFLICT,
    HrErrorCode.HR_REFERENCE_NOT_FOUND,
    HrErrorCode.HR_PERSONNEL_TERMINATED,
    HrErrorCode.HR_ALREADY_MEMBER,
    HrErrorCode.HR_OTHER_OBJECT,
    HrErrorCode.HR_DATE_ORDER,
  ],
});

export const hrDisbandBrigade = defineOperation({
  ...base,
  name: 'hrDisbandBrigade',
  kind: 'mutation',
  summary: 'Disband a brigade (active → inactive)',
  description: 'Deactivates the brigade and closes every active membership (as of today) in the same transaction.',
  access: MANAGERS,
  idempotency: 'required',
  input: { path: byId },
  output: Brigade,
  rest: { method: 'POST', path: `${PATH}/:id/disband` },
  errors: [NOT_FOUND, CONFLICT],
});

export const hrDeleteBrigade = defineOperation({
  ...base,
  name: 'hrDeleteBrigade',
  kind: 'mutation',
  summary: 'Move a brigade to the trash',
  description:
    'Only while it has no active members (disband it or move them first). It leaves lists, card and roster, and can be restored from `/api/v1/core/trash/brigades`.',
  access: MANAGERS,
  input: { path: byId },
  output: z.object({ id: z.uuid(), deletedAt: z.string().describe('ISO 8601.') }).meta({ id: 'DeletedBrigade' }),
  rest: { method: 'DELETE', path: `${PATH}/:id` },
  errors: [NOT_FOUND, HrErrorCode.HR_BRIGADE_HAS_MEMBERS],
});

export const BRIGADE_CONTRACTS = [
  hrListBrigades,
  hrCreateBrigade,
  hrGetBrigade,
  hrUpdateBrigade,
  hrBrigadeRoster,
  hrAddBrigadeMember,
  hrDisbandBrigade,
  hrDeleteBrigade,
] as const;
