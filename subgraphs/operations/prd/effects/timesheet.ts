import type { TimesheetService } from '../../hr/timesheet.service.js';
import { ShiftPersonnelEntryEntity } from '../shift-entries.entity.js';
import type { ShiftReportEffect } from './effect.js';

/** The timesheet: each personnel entry's hours and downtime as the employee's timesheet entry for the shift, or taken out. */
export function timesheetEffect(timesheet: TimesheetService): ShiftReportEffect {
  return {
    step: 'timesheet',
    async apply(em, { report, sagaId }) {
      const entries = await em.find(ShiftPersonnelEntryEntity, { shiftReportId: report.id }, { orderBy: { id: 'asc' } });
      const lines = entries.map((entry) => ({
        entryId: entry.id,
        personnelId: entry.personnelId,
        positionId: entry.positionId,
        hoursWorked: entry.hoursWorked,
        downtimeHours: entry.downtimeHours,
      }));
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
