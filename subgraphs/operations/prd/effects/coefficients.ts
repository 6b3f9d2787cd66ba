import { SHIFT_HOURS } from '../../../../contracts/operations/prd/types.js';
import { AssetShiftCoefficientEntity } from '../asset-shift-coefficient.entity.js';
import type { ShiftReportEffect } from './effect.js';

/**
 * Availability and utilization of each machine of the report in its shift, from its hours and
 * its downtime entries: availability = (scheduled − downtime) / scheduled, utilization =
 * min(worked, available) / available (0 when nothing was available), downtime capped at the
 * scheduled hours; 4 decimal places. A machine used in several stints has one row: its hours and
 * the downtime of all its usages summed, kept with its first usage. Undone by removing the
 * report's rows. Rows go in asset order, the order every step that locks assets takes them in, so
 * concurrent approvals sharing machines cannot deadlock.
 */

const TABLE = '"operations"."asset_shift_coefficient"';

export const coefficientsEffect: ShiftReportEffect = {
  step: 'coefficients',
  async apply(em, { report, sagaId }) {
    // raw SQL: generated statistics (sums per machine, availability and utilization computed in one insert).
    const rows = await em.execute<Array<{ id: string }>>(
      `insert into ${TABLE} ("organization_id", "asset_id", "production_object_id", "asset_usage_id", "shift_report_id", "shift_date",
         "shift_type", "scheduled_hours", "hours_worked", "downtime_hours", "availability", "utilization", "saga_id")
       select u."organization_id", u."asset_id", r."production_object_id", u."first_usage_id", r."id", r."shift_date", r."shift_type",
         s.scheduled, u.hours, d.hours, round((s.scheduled - d.hours) / s.scheduled, 4),
         case when d.hours >= s.scheduled then 0 else round(least(u.hours, s.scheduled - d.hours) / (s.scheduled - d.hours), 4) end,
         ?
       from (
         select "organization_id", "asset_id", "shift_report_id", sum("hours_worked") as hours,
           (array_agg("id" order by "created_at", "id"))[1] as "first_usage_id"
         from "operations"."shift_asset_usage" where "shift_report_id" = ?
         group by "organization_id", "asset_id", "shift_report_id") u
       join "operations"."shift_report" r on r."id" = u."shift_report_id"
       cross join (select ?::numeric as scheduled) s
       cross join lateral (
         select least(s.scheduled, round(coalesce(sum(extract(epoch from (e."ended_at" - e."started_at"))), 0) / 3600, 2)) as hours
         from "operations"."shift_downtime_entry" e join "operations"."shift_asset_usage" a on a."id" = e."asset_usage_id"
         where a."shift_report_id" = u."shift_report_id" and a."asset_id" = u."asset_id") d
       order by u."asset_id"
       on conflict do nothing returning "id"`,
      [sagaId, report.id, SHIFT_HOURS],
    );
    return { written: rows.length };
  },
  async undo(em, { report }) {
    return { removed: await em.nativeDelete(AssetShiftCoefficientEntity, { shiftReportId: report.id }) };
  },
};
