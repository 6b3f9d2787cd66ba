import type { MachineHoursService } from '../../eam/machine-hours.js';
import type { ShiftReportEffect } from './effect.js';

/** Machine hours: each asset usage's hours and meter added to its asset, or taken back. */

const USAGES = '"operations"."shift_asset_usage"';
export const USAGE_SOURCE = 'prd.shift-asset-usage';

export function machineHoursEffect(hours: MachineHoursService): ShiftReportEffect {
  return {
    step: 'machine-hours',
    async apply(em, { report, sagaId, actorId }) {
      const usages = await em.execute<Array<{ id: string; asset_id: string; hours: string; meter_start: string; meter_end: string }>>(
        `select "id", "asset_id", "hours_worked"::text as "hours", "meter_reading_start"::text as "meter_start",
           "meter_reading_end"::text as "meter_end"
         from ${USAGES} where "shift_report_id" = ? order by "asset_id", "id"`,
        [report.id],
      );
      const runs: string[] = [];
      for (const usage of usages) {
        runs.push(
          await hours.record(em, {
            assetId: usage.asset_id,
            hours: usage.hours,
            meterStart: usage.meter_start,
            meterEnd: usage.meter_end,
            sourceType: USAGE_SOURCE,
            sourceId: usage.id,
            sagaId,
            actorId,
          }),
        );
      }
      return { runs };
    },
    async undo(em, { report, sagaId, actorId }) {
      const live = await em.execute<Array<{ id: string }>>(
        `select e."id" from "operations"."asset_hours_entry" e join ${USAGES} u on u."id" = e."source_id"
         where u."shift_report_id" = ? and e."kind" = 'run' and e."reversed_by_id" is null order by e."asset_id", e."id"`,
        [report.id],
      );
      for (const run of live) await hours.reverse(em, run.id, { sagaId, actorId });
      return { reversed: live.map((run) => run.id) };
    },
  };
}
