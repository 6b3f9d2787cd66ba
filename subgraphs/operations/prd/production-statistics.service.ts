import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { prdListAssetCoefficients, prdListProductionStatistics } from '../../../contracts/operations/prd/statistics.contract.js';
import { AssetShiftCoefficient, ProductionStatistic } from '../../../contracts/operations/prd/types.js';
import { cursorList } from '../core/cursor-list.js';
import { recordMapper } from '../core/rows.js';

/** Reading what approved shift reports add up to: statistics per object and day, coefficients per asset and shift. */

const toStatistic = recordMapper<z.output<typeof ProductionStatistic>>(ProductionStatistic);
const toCoefficient = recordMapper<z.output<typeof AssetShiftCoefficient>>(AssetShiftCoefficient);

export class ProductionStatisticsService {
  async statistics(em: EntityManager, input: ContractInput<typeof prdListProductionStatistics>) {
    const equals = { production_object_id: input.productionObjectId };
    const conditions = { '"stat_date" >= ?::date': input.dateFrom, '"stat_date" <= ?::date': input.dateTo };
    return cursorList(
      em,
      { table: '"operations"."production_statistic"', equals, conditions, orderBy: 'stat_date', direction: 'desc' },
      input,
      toStatistic,
    );
  }

  async coefficients(em: EntityManager, input: ContractInput<typeof prdListAssetCoefficients>) {
    const equals = { asset_id: input.assetId, production_object_id: input.productionObjectId, shift_report_id: input.shiftReportId };
    const conditions = { '"shift_date" >= ?::date': input.shiftDateFrom, '"shift_date" <= ?::date': input.shiftDateTo };
    return cursorList(
      em,
      { table: '"operations"."asset_shift_coefficient"', equals, conditions, orderBy: 'shift_date', direction: 'desc' },
      input,
      toCoefficient,
    );
  }
}
