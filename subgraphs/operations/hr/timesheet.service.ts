import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { hrListTimesheet } from '../../../contracts/operations/hr/timesheet.contract.js';
import { TimesheetEntry } from '../../../contracts/operations/hr/types.js';
import { cursorList } from '../core/cursor-list.js';
import { recordMapper } from '../core/rows.js';
import { TimesheetEntryEntity } from './timesheet-entry.entity.js';

/**
 * The timesheet: employees' hours and downtime per shift. Written by another module's workflow
 * (the shift-report approval saga) inside its tenant transaction, one entry per source line,
 * and taken back by source; both idempotent, so a retried step changes the timesheet once.
 */

const TABLE = '"operations"."timesheet_entry"';
type TimesheetData = z.output<typeof TimesheetEntry>;
const toEntry = recordMapper<TimesheetData>(TimesheetEntry);

export interface TimesheetShift {
  /** The shift report the hours come from. */
  readonly sourceId: string;
  readonly objectId: string;
  readonly workDate: string;
  readonly shiftType: 'day' | 'night';
  readonly sagaId?: string | null;
  readonly lines: ReadonlyArray<{
    /** The line of the source (a personnel entry): one timesheet entry each. */
    readonly entryId: string;
    readonly personnelId: string;
    readonly positionId: string;
    /** Exact decimals (numbers, or `numeric` text). */
    readonly hoursWorked: number | string;
    readonly downtimeHours: number | string;
  }>;
}

export type TimesheetFilter = ContractInput<typeof hrListTimesheet>;

export class TimesheetService {
  /** Writes the shift's lines; lines already in the timesheet are left as they are. Returns how many were written. */
  async record(em: EntityManager, shift: TimesheetShift): Promise<number> {
    let written = 0;
    for (const line of shift.lines) {
      // raw SQL: `on conflict do nothing` keeps a retried saga step from writing a line twice.
      const rows = await em.execute<Array<{ id: string }>>(
        `insert into ${TABLE} ("organization_id", "personnel_id", "position_id", "object_id", "work_date", "shift_type", "hours_worked",
           "downtime_hours", "source_id", "source_entry_id", "saga_id")
         values (nullif(current_setting('app.organization_id', true), '')::uuid, ?, ?, ?, ?::date, ?, ?::numeric, ?::numeric, ?, ?, ?)
         on conflict ("source_entry_id") do nothing returning "id"`,
        [
          line.personnelId,
          line.positionId,
          shift.objectId,
          shift.workDate,
          shift.shiftType,
          String(line.hoursWorked),
          String(line.downtimeHours),
          shift.sourceId,
          line.entryId,
          shift.sagaId ?? null,
        ],
      );
      written += rows.length;
    }
    return written;
  }

  /** Takes the source's entries out of the timesheet; returns how many there were. */
  async remove(em: EntityManager, sourceId: string): Promise<number> {
    return em.nativeDelete(TimesheetEntryEntity, { sourceId });
  }

  async list(em: EntityManager, filter: TimesheetFilter) {
    const equals = { personnel_id: filter.personnelId, object_id: filter.objectId, source_id: filter.sourceId };
    const conditions = { '"work_date" >= ?::date': filter.dateFrom, '"work_date" <= ?::date': filter.dateTo };
    return cursorList(em, { table: TABLE, equals, conditions, orderBy: 'work_date', direction: 'desc' }, filter, toEntry);
  }
}
