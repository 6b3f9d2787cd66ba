import { ProductionStatisticEntity } from '../production-statistic.entity.js';
import type { ShiftReportEffect } from './effect.js';

/**
 * Production statistics per object and day: the report's figures are kept as its share
 * (`production_statistic_entry`, one per report) and added to the day's totals in the same
 * statement; undoing removes the share and subtracts exactly it (a day left with no report is
 * removed). Each is one statement, so the share and the totals never disagree.
 */

const TOTALS = '"operations"."production_statistic"';
const SHARES = '"operations"."production_statistic_entry"';
const T = (name: string) => `"operations"."${name}"`;

export const FIGURES = [
  'holes_drilled',
  'depth_meters',
  'blocks_blasted',
  'explosive_kg',
  'fuel_issued_liters',
  'fuel_consumed_liters',
  'machine_hours',
  'downtime_hours',
  'personnel_hours',
  'personnel_downtime_hours',
] as const;

/** Each figure of the report `r`, computed from its entries. */
const FIGURE_SQL: Record<(typeof FIGURES)[number], string> = {
  holes_drilled: `(select coalesce(sum("holes_drilled"), 0) from ${T('shift_drilling_entry')} where "shift_report_id" = r."id")`,
  depth_meters: `(select coalesce(sum("depth_meters"), 0) from ${T('shift_drilling_entry')} where "shift_report_id" = r."id")`,
  blocks_blasted: `(select coalesce(sum("blocks_blasted"), 0) from ${T('shift_blasting_entry')} where "shift_report_id" = r."id")`,
  explosive_kg: `(select coalesce(sum("explosive_kg"), 0) from ${T('shift_blasting_entry')} where "shift_report_id" = r."id")`,
  fuel_issued_liters: `(select coalesce(sum("liters_issued"), 0) from ${T('shift_fuel_entry')} where "shift_report_id" = r."id")`,
  fuel_consumed_liters: `(select coalesce(sum("liters_consumed"), 0) from ${T('shift_fuel_entry')} where "shift_report_id" = r."id")`,
  machine_hours: `(select coalesce(sum("hours_worked"), 0) from ${T('shift_asset_usage')} where "shift_report_id" = r."id")`,
  downtime_hours: `(select round(coalesce(sum(extract(epoch from ("ended_at" - "started_at"))), 0) / 3600, 2)
    from ${T('shift_downtime_entry')} where "shift_report_id" = r."id")`,
  personnel_hours: `(select coalesce(sum("hours_worked"), 0) from ${T('shift_personnel_entry')} where "shift_report_id" = r."id")`,
  personnel_downtime_hours: `(select coalesce(sum("downtime_hours"), 0) from ${T('shift_personnel_entry')} where "shift_report_id" = r."id")`,
};

const columns = FIGURES.map((figure) => `"${figure}"`).join(', ');

export const statisticsEffect: ShiftReportEffect = {
  step: 'statistics',
  async apply(em, { report, sagaId }) {
    // raw SQL: generated statistics (the report's share and the day's totals in one statement).
    const rows = await em.execute<Array<{ id: string }>>(
      `with share as (
         insert into ${SHARES} ("organization_id", "production_object_id", "stat_date", "shift_report_id", "saga_id", ${columns})
         select r."organization_id", r."production_object_id", r."shift_date", r."id", ?, ${FIGURES.map((figure) => FIGURE_SQL[figure]).join(', ')}
         from ${T('shift_report')} r where r."id" = ?
         on conflict ("shift_report_id") do nothing returning *)
       insert into ${TOTALS} ("organization_id", "production_object_id", "stat_date", "reports", ${columns})
       select "organization_id", "production_object_id", "stat_date", 1, ${columns} from share
       on conflict ("organization_id", "production_object_id", "stat_date") do update set "reports" = ${TOTALS}."reports" + 1,
         ${FIGURES.map((figure) => `"${figure}" = ${TOTALS}."${figure}" + excluded."${figure}"`).join(', ')}, "updated_at" = now()
       returning "id"`,
      [sagaId, report.id],
    );
    return { added: rows.length };
  },
  async undo(em, { report }) {
    // raw SQL: generated statistics (the report's share taken back from the day's totals in one statement).
    const rows = await em.execute<Array<{ id: string; reports: number }>>(
      `with share as (delete from ${SHARES} where "shift_report_id" = ? returning *)
       update ${TOTALS} t set "reports" = t."reports" - 1,
         ${FIGURES.map((figure) => `"${figure}" = t."${figure}" - share."${figure}"`).join(', ')}, "updated_at" = now()
       from share where t."organization_id" = share."organization_id" and t."production_object_id" = share."production_object_id"
         and t."stat_date" = share."stat_date"
       returning t."id", t."reports"`,
      [report.id],
    );
    for (const row of rows) if (row.reports === 0) await em.nativeDelete(ProductionStatisticEntity, { id: row.id, reports: 0 });
    return { subtracted: rows.length };
  },
};
