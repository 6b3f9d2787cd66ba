import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { cursorPaging, ops } from '../fields.js';
import { TimesheetEntry } from './types.js';

/**
 * The timesheet (our design, docs/adr/0017): employees' hours and downtime per shift, written by
 * the approval saga of a shift report and taken back by its compensation or by the reverse saga.
 */
export const hrListTimesheet = defineOperation({
  service: 'operations',
  tags: ['hr: timesheet'],
  name: 'hrListTimesheet',
  kind: 'query',
  summary: 'Timesheet',
  description:
    'Newest day first; `dateFrom`/`dateTo` bound `workDate` (inclusive). Object-scoped roles see the shifts worked at their objects.',
  access: members(['CEO', 'Engineer', 'Foreman', 'Admin']),
  input: {
    query: {
      personnelId: ops.id().optional(),
      objectId: ops.id().optional(),
      sourceId: ops.id().optional().describe('A shift report.'),
      dateFrom: ops.date().optional(),
      dateTo: ops.date().optional(),
    },
  },
  output: TimesheetEntry,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/hr/timesheet' },
});
