import type { FuelIssueService } from '../../fuel/fuel-issue.service.js';
import type { ShiftReportEffect } from './effect.js';

/** Fuel: each fuel entry's `litersIssued` issued from its tank (a ledger entry referencing the entry), or that issue reversed. */

export const FUEL_REFERENCE = 'prd.shift-report.fuel';
const ENTRIES = '"operations"."shift_fuel_entry"';
const ISSUES = '"operations"."fuel_issue"';
/** An issue of the entry that is in effect. */
const LIVE = `i."reference_type" = '${FUEL_REFERENCE}' and i."reference_id" = e."id" and i."kind" = 'issue' and i."reversed_by_id" is null`;

export function fuelEffect(fuel: FuelIssueService): ShiftReportEffect {
  return {
    step: 'fuel',
    async apply(em, { report, sagaId, actorId }) {
      // Tanks in id order: concurrent approvals drawing on the same tanks lock them in the same order.
      // raw SQL: the entries not yet issued (an anti-join on the ledger), in tank order.
      const entries = await em.execute<Array<{ id: string; tank_id: string; liters: string }>>(
        `select e."id", e."tank_id", e."liters_issued"::text as "liters" from ${ENTRIES} e
         where e."shift_report_id" = ? and e."liters_issued" > 0 and not exists (select 1 from ${ISSUES} i where ${LIVE})
         order by e."tank_id", e."id"`,
        [report.id],
      );
      const issued: string[] = [];
      for (const entry of entries) {
        const issue = await fuel.issueFuel(em, entry.tank_id, entry.liters, {
          actorId,
          referenceType: FUEL_REFERENCE,
          referenceId: entry.id,
          sagaId,
        });
        issued.push(issue.id);
      }
      return { issued };
    },
    async undo(em, { report, actorId }) {
      // raw SQL: the live issues of the report's entries, a join in tank order.
      const live = await em.execute<Array<{ id: string }>>(
        `select i."id" from ${ISSUES} i join ${ENTRIES} e on ${LIVE} where e."shift_report_id" = ? order by i."tank_id", i."id"`,
        [report.id],
      );
      for (const issue of live) await fuel.reverseIssue(em, issue.id, { actorId, reason: 'Shift report approval taken back.' });
      return { reversed: live.map((issue) => issue.id) };
    },
  };
}
