import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantKey } from '../domain-columns.js';

/** An employee's hours in one shift, written when a shift report is approved (one row per personnel entry). */
export const TimesheetEntryEntity = defineEntity({
  name: 'TimesheetEntry',
  tableName: 'timesheet_entry',
  properties: {
    ...tenantKey(),
    personnelId: p.uuid(),
    positionId: p.uuid(),
    objectId: p.uuid(),
    workDate: p.date(),
    shiftType: p.enum(['day', 'night'] as const).columnType('varchar(8)'),
    hoursWorked: p.decimal().precision(4).scale(2),
    downtimeHours: p.decimal().precision(4).scale(2),
    sourceId: p.uuid(),
    sourceEntryId: p.uuid(),
    sagaId: p.uuid().nullable(),
    createdAt: createdAt(),
  },
});

export type TimesheetEntry = InferEntity<typeof TimesheetEntryEntity>;
