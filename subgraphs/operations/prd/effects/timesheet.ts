import type { TimesheetService } from '../../hr/timesheet.service.js';
import type { ShiftReportEffect } from './effect.js';

/** The timesheet: each personnel entry's hours and downtime as the employee's timesheet entry for the shift, or taken out. */
export function timesheetEffect(timesheet: TimesheetService): ShiftReportEffect {
  return {
    step: 'timesheet',
    async apply(em, { report, sagaId }) {
      const lines = await em.execute<
        Array<{ entryId: string; personnelId: string; positionId: string; hoursWorked: string; downtimeHours: string }>
      >(
        `select "id" as "entryId", "personnel_id" as "personnelId", "position_id" as "positionId",
           "hours_worked"::text as "hoursWorked", "downtime_hours"::text as "downtimeHours"
         from "operations"."shift_personnel_entry" where "shift_report_id" = ? order by "id"`,
        [report.id],
      );
      const written = await timesheet.record(em, {
        sourceId: report.id,
        objectId: report.objectId,
        workDate: report.shiftDate,
        shiftType: report.shiftType,
        sagaId,
        lines,
      });
      return { written };
    },
    async undo(em, { report }) {
      return { removed: await timesheet.remove(em, report.id) };
    },
  };
}
