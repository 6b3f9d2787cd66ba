import type { MachineHoursService } from '../../eam/machine-hours.js';
import { ShiftAssetUsageEntity } from '../shift-entries.entity.js';
import type { ShiftReportEffect } from './effect.js';

/** Machine hours: each asset usage's hours and meter added to its asset, or taken back. */

const USAGES = '"operations"."shift_asset_usage"';
export const USAGE_SOURCE = 'prd.shift-asset-usage';

export function machineHoursEffect(hours: MachineHoursService): ShiftReportEffect {
  return {
    step: 'machine-hours',
    async apply(em, { report, sagaId, actorId }) {
      const usages = await em.find(ShiftAssetUsageEntity, { shiftReportId: report.id }, { orderBy: { assetId: 'asc', id: 'asc' } });
      const runs: string[] = [];
      for (const usage of usages) {
        runs.push(
          await hours.record(em, {
            assetId: usage.assetId,
            hours: usage.hoursWorked,
            meterStart: usage.meterReadingStart,
            meterEnd: usage.meterReadingEnd,
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
      // raw SQL: the live runs of the report's usages, a join in asset order.
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
