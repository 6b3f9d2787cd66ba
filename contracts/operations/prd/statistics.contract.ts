import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { cursorPaging, ops } from '../fields.js';
import { PRD_READERS } from './shift-reports.contract.js';
import { AssetShiftCoefficient, ProductionStatistic } from './types.js';

/**
 * What approved shift reports add up to (our design, docs/adr/0017): production statistics per
 * object and day, and availability and utilization per asset and shift. Written and taken back
 * only by the approval and reverse sagas.
 */

const base = { service: 'operations', tags: ['prd: statistics'], access: members(PRD_READERS) } as const;

export const prdListProductionStatistics = defineOperation({
  ...base,
  name: 'prdListProductionStatistics',
  kind: 'query',
  summary: 'Production statistics per object and day',
  description: 'Newest day first; `dateFrom`/`dateTo` inclusive. Foremen see their production objects.',
  input: {
    query: { productionObjectId: ops.id().optional(), dateFrom: ops.date().optional(), dateTo: ops.date().optional() },
  },
  output: ProductionStatistic,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/prd/statistics' },
});

export const prdListAssetCoefficients = defineOperation({
  ...base,
  name: 'prdListAssetCoefficients',
  kind: 'query',
  summary: 'Availability and utilization per asset and shift',
  description: 'Newest shift first; `shiftDateFrom`/`shiftDateTo` inclusive. Foremen see their production objects.',
  input: {
    query: {
      assetId: ops.id().optional(),
      productionObjectId: ops.id().optional(),
      shiftReportId: ops.id().optional(),
      shiftDateFrom: ops.date().optional(),
      shiftDateTo: ops.date().optional(),
    },
  },
  output: AssetShiftCoefficient,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/prd/asset-coefficients' },
});

export const PRD_STATISTICS_CONTRACTS = [prdListProductionStatistics, prdListAssetCoefficients] as const;
