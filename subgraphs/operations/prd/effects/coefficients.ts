import { SHIFT_HOURS } from '../../../../contracts/operations/prd/types.js';
import type { ShiftReportEffect } from './effect.js';

/**
 * Availability and utilization of each machine of the report in its shift, from its hours and
 * its downtime entries: availability = (scheduled − downtime) / scheduled, utilization =
 * min(worked, available) / available (0 when nothing was available), downtime capped at the
 * scheduled hours; 4 decimal places. One row per asset usage; undone by removing the report's rows.
 * Rows go in asset order, the order every step that locks assets takes them in, so concurrent
 * approvals sharing machines cannot deadlock.
 */

const TABLE = '"operations"."asset_shift_coefficient"';

export const coefficientsEffect: ShiftReportEffect = {
  step: 'coefficients',
  async apply(em, { report, sagaId }) {
    const rows = await em.execute<Array<{ id: string }>>(
      `insert into ${TABLE} ("organization_id", "asset_id", "production_object_id", "asset_usage_id", "shift_report_id", "shift_date",
         "shift_type", "scheduled_hours", "hours_worked", "downtime_hours", "availability", "utilization", "saga_id")
       select u."organization_id", u."asset_id", r."production_object_id", u."id", r."id", r."shift_date", r."shift_type",
         s.scheduled, u."hours_worked", d.hours, round((s.scheduled - d.hours) / s.scheduled, 4),
         case when d.hours >= s.scheduled then 0 else round(least(u."hours_worked", s.scheduled - d.hours) / (s.scheduled - d.hours), 4) end,
         ?
       from "operations"."shift_asset_usage" u
       join "operations"."shift_report" r on r."id" = u."shift_report_id"
       cross join (select ?::numeric as scheduled) s
       cross join lateral (
         select least(s.scheduled, round(coalesce(sum(extract(epoch from (e."ended_at" - e."started_at"))), 0) / 3600, 2)) as hours
         from "operations"."shift_downtime_entry" e where e."asset_usage_id" = u."id") d
       where u."shift_report_id" = ?
       order by u."asset_id", u."id"
       on conflict ("asset_usage_id") do nothing returning "id"`,
      [sagaId, SHIFT_HOURS, report.id],
    );
    return { written: rows.length };
  },
  async undo(em, { report }) {
    const rows = await em.execute<Array<{ id: string }>>(`delete from ${TABLE} where "shift_report_id" = ? returning "id"`, [report.id]);
    return { removed: rows.length };
  },
};
