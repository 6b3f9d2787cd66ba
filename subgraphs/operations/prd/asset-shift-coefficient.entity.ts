import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantKey } from '../domain-columns.js';

/** Availability and utilization of a machine in one shift, summed over its stints. */
export const AssetShiftCoefficientEntity = defineEntity({
  name: 'AssetShiftCoefficient',
  tableName: 'asset_shift_coefficient',
  properties: {
    ...tenantKey(),
    assetId: p.uuid(),
    productionObjectId: p.uuid(),
    assetUsageId: p.uuid(),
    shiftReportId: p.uuid(),
    shiftDate: p.date(),
    shiftType: p.enum(['day', 'night'] as const).columnType('varchar(8)'),
    scheduledHours: p.decimal().precision(4).scale(2),
    hoursWorked: p.decimal().precision(4).scale(2),
    downtimeHours: p.decimal().precision(6).scale(2),
    availability: p.decimal().precision(6).scale(4),
    utilization: p.decimal().precision(6).scale(4),
    sagaId: p.uuid().nullable(),
    createdAt: createdAt(),
  },
});

export type AssetShiftCoefficient = InferEntity<typeof AssetShiftCoefficientEntity>;
