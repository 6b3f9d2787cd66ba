import { z } from 'zod';
import type { OperationsRole } from '../../access.js';
import { ops, timestamps } from '../fields.js';
import { ShiftType } from '../prd/types.js';

/** Records of personnel and brigades (seed 002, Resources: Personnel, Brigade, Brigade membership). */

export const EVERY_ROLE: readonly OperationsRole[] = ['CEO', 'Engineer', 'Foreman', 'Mechanic', 'OtibSpecialist', 'Supply', 'Admin'];

/** Today in UTC as `YYYY-MM-DD`, read at each validation so the bound moves with the calendar. */
export const today = () => new Date().toISOString().slice(0, 10);

/** A `YYYY-MM-DD` date from `min` to today. */
export const dateSince = (min: string) =>
  ops.date().refine((value) => value >= min && value <= today(), { error: `must be a date from ${min} to today` });

const date = (what: string) => z.string().describe(`${what} (YYYY-MM-DD).`);

export const PersonnelStatus = z
  .enum(['active', 'onWatch', 'onVacation', 'terminated'])
  .meta({ id: 'PersonnelStatus', description: 'Where an employee stands: working, on watch at a remote site, on vacation, or gone.' });

export const Personnel = z
  .object({
    id: z.uuid(),
    fullName: z.string(),
    tabNumber: z.string().describe('Personnel number, unique in the organization.'),
    birthDate: date('Date of birth').nullable(),
    positionId: z.uuid().describe('A row of the positions reference book.'),
    status: PersonnelStatus,
    objectId: z.uuid().nullable().describe('The production object the employee works at.'),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    hiredAt: date('Hiring date'),
    terminatedAt: date('Termination date').nullable(),
    terminationReason: z.string().nullable(),
    arrivalDate: date('Arrival on the current or last watch').nullable(),
    expectedReturnDate: date('Expected return from the current vacation').nullable(),
    ...timestamps,
  })
  .meta({ id: 'Personnel', description: 'An employee of the organization.' });

export const WorkType = z.enum(['drilling', 'blasting', 'auxiliary']).meta({ id: 'BrigadeWorkType' });

export const Brigade = z
  .object({
    id: z.uuid(),
    name: z.string(),
    objectId: z.uuid().describe('The production object the brigade works at.'),
    workType: WorkType,
    brigadierId: z.uuid().nullable().describe('The employee leading the brigade.'),
    isActive: z.boolean().describe('False once disbanded.'),
    disbandedAt: z.string().nullable().describe('ISO 8601.'),
    ...timestamps,
  })
  .meta({ id: 'Brigade', description: 'A team of employees at one production object.' });

export const BrigadeMembership = z
  .object({
    id: z.uuid(),
    brigadeId: z.uuid(),
    personnelId: z.uuid(),
    fromDate: date('First day in the brigade'),
    toDate: date('Last day in the brigade; null while active').nullable(),
  })
  .meta({ id: 'BrigadeMembership', description: 'An employee’s time in a brigade.' });

export const TimesheetEntry = z
  .object({
    id: z.uuid(),
    personnelId: z.uuid(),
    positionId: z.uuid(),
    objectId: z.uuid().describe('Where the shift was worked.'),
    workDate: date('Day of the shift'),
    shiftType: ShiftType,
    hoursWorked: z.number(),
    downtimeHours: z.number(),
    sourceId: z.uuid().describe('The approved shift report the hours come from.'),
    sagaId: z.uuid().nullable().describe('The saga that wrote the entry.'),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'TimesheetEntry', description: 'An employee’s hours and downtime in one shift, from an approved shift report.' });

export type PersonnelData = z.output<typeof Personnel>;
export type BrigadeData = z.output<typeof Brigade>;
export type BrigadeMembershipData = z.output<typeof BrigadeMembership>;
