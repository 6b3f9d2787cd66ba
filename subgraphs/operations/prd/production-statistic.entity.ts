import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantKey, timestamps } from '../domain-columns.js';

/** The figures a day's totals and each report's share of them are kept in, every one zero until a report adds to it. */
const productionFigures = () => ({
  holesDrilled: p.decimal().columnType('numeric').defaultRaw('0'),
  depthMeters: p.decimal().precision(20).scale(2).defaultRaw('0'),
  blocksBlasted: p.decimal().columnType('numeric').defaultRaw('0'),
  explosiveKg: p.decimal().precision(20).scale(3).defaultRaw('0'),
  fuelIssuedLiters: p.decimal().precision(20).scale(3).defaultRaw('0'),
  fuelConsumedLiters: p.decimal().precision(20).scale(3).defaultRaw('0'),
  machineHours: p.decimal().precision(20).scale(2).defaultRaw('0'),
  downtimeHours: p.decimal().precision(20).scale(2).defaultRaw('0'),
  personnelHours: p.decimal().precision(20).scale(2).defaultRaw('0'),
  personnelDowntimeHours: p.decimal().precision(20).scale(2).defaultRaw('0'),
});

/** Production figures of an object and day: the totals of its approved reports (`reports` counts them). */
export const ProductionStatisticEntity = defineEntity({
  name: 'ProductionStatistic',
  tableName: 'production_statistic',
  properties: {
    ...tenantKey(),
    productionObjectId: p.uuid(),
    statDate: p.date(),
    reports: p.integer().default(0),
    ...productionFigures(),
    ...timestamps(),
  },
});

export type ProductionStatistic = InferEntity<typeof ProductionStatisticEntity>;

/** What one approved report added to its day's totals, taken back exactly when the report is reversed. */
export const ProductionStatisticEntryEntity = defineEntity({
  name: 'ProductionStatisticEntry',
  tableName: 'production_statistic_entry',
  properties: {
    ...tenantKey(),
    productionObjectId: p.uuid(),
    statDate: p.date(),
    shiftReportId: p.uuid(),
    sagaId: p.uuid().nullable(),
    ...productionFigures(),
    createdAt: createdAt(),
  },
});

export type ProductionStatisticEntry = InferEntity<typeof ProductionStatisticEntryEntity>;
