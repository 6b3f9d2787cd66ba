import type { OpenAssignmentCheck } from '../hr/open-assignments.js';

/**
 * The shift-report module's open assignment of an employee: operator of a machine in a report
 * still being drafted. Terminating with `force` leaves those usages without an operator.
 */
export const operatorInDraftReport: OpenAssignmentCheck = {
  name: 'operator in a draft shift report',
  async find(em, personnelId) {
    // raw SQL: the usages joined with their draft reports, in shift order.
    const rows = await em.execute<Array<{ id: string; shift_date: string; shift_type: string }>>(
      `select r."id", r."shift_date"::text as "shift_date", r."shift_type" from "operations"."shift_asset_usage" u
       join "operations"."shift_report" r on r."id" = u."shift_report_id"
       where u."operator_personnel_id" = ? and r."status" = 'draft' order by r."shift_date", r."id"`,
      [personnelId],
    );
    return rows.map((row) => `operator in the draft shift report of ${row.shift_date} (${row.shift_type}) (${row.id})`);
  },
  async close(em, personnelId) {
    // raw SQL: bulk update of the usages of draft reports (a join).
    await em.execute(
      `update "operations"."shift_asset_usage" u set "operator_personnel_id" = null, "updated_at" = now()
       from "operations"."shift_report" r
       where r."id" = u."shift_report_id" and u."operator_personnel_id" = ? and r."status" = 'draft'`,
      [personnelId],
    );
  },
};
