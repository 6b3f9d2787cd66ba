import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/**
 * A machine or piece of equipment at a production object. `maintenanceId` is set exactly while the status
 * is `maintenance`; `machineHours` and `meterReading` are kept by the machine-hours ledger.
 */
export const AssetEntity = defineEntity({
  name: 'Asset',
  tableName: 'asset',
  properties: {
    ...tenantKey(),
    inventoryNumber: p.string().length(20),
    name: p.string().length(200),
    assetClassId: p.uuid(),
    currentObjectId: p.uuid(),
    responsibleMechanicId: p.uuid().nullable(),
    status: p
      .enum(['operational', 'maintenance', 'conserved', 'decommissioned'] as const)
      .columnType('varchar(16)')
      .default('operational'),
    maintenanceId: p.uuid().nullable(),
    commissionedAt: timestamptz(),
    passport: p.json<Record<string, unknown>>(),
    decommissionedAt: timestamptz().nullable(),
    decommissionedBy: p.uuid().nullable(),
    decommissionCoApprovedBy: p.uuid().nullable(),
    decommissionReason: p.string().length(1000).nullable(),
    ...timestamps(),
    machineHours: p.decimal().precision(14).scale(2).defaultRaw('0'),
    meterReading: p.decimal().precision(14).scale(2).nullable(),
  },
});

export type Asset = InferEntity<typeof AssetEntity>;
