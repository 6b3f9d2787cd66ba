import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { AssetShiftCoefficient, ProductionStatistic } from '../../../contracts/operations/prd/types.js';
import { cursorList } from '../core/cursor-list.js';
import { recordMapper } from '../core/rows.js';

/** Reading what approved shift reports add up to: statistics per object and day, coefficients per asset and shift. */

const toStatistic = recordMapper<z.output<typeof ProductionStatistic>>(ProductionStatistic);
const toCoefficient = recordMapper<z.output<typeof AssetShiftCoefficient>>(AssetShiftCoefficient);

/** `column = ?` (or the given comparison) for each value that is set. */
function conditions(filters: ReadonlyArray<readonly [string, unknown]>): { where: string[]; params: unknown[] } {
  const set = filters.filter(([, value]) => value !== undefined);
  return { where: set.map(([condition]) => condition), params: set.map(([, value]) => value) };
}

export class ProductionStatisticsService {
  async statistics(
    em: EntityManager,
    input: { productionObjectId?: string; dateFrom?: string; dateTo?: string; cursor?: string; limit: number },
  ) {
    const { where, params } = conditions([
      [`"production_object_id" = ?`, input.productionObjectId],
      [`"stat_date" >= ?::date`, input.dateFrom],
      [`"stat_date" <= ?::date`, input.dateTo],
    ]);
    return cursorList(
      em,
      { table: '"operations"."production_statistic"', where, params, orderBy: 'stat_date', direction: 'desc' },
      input,
      toStatistic,
    );
  }

  async coefficients(
    em: EntityManager,
    input: {
      assetId?: string;
      productionObjectId?: string;
      shiftReportId?: string;
      shiftDateFrom?: string;
      shiftDateTo?: string;
      cursor?: string;
      limit: number;
    },
  ) {
    const { where, params } = conditions([
      [`"asset_id" = ?`, input.assetId],
      [`"production_object_id" = ?`, input.productionObjectId],
      [`"shift_report_id" = ?`, input.shiftReportId],
      [`"shift_date" >= ?::date`, input.shiftDateFrom],
      [`"shift_date" <= ?::date`, input.shiftDateTo],
    ]);
    return cursorList(
      em,
      { table: '"operations"."asset_shift_coefficient"', where, params, orderBy: 'shift_date', direction: 'desc' },
      input,
      toCoefficient,
    );
  }
}
