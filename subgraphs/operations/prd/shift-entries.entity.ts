import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** The key columns of every entry: its tenant key, the report it belongs to and the report's object. */
const entryKey = () => ({ ...tenantKey(), shiftReportId: p.uuid(), objectId: p.uuid() });

/** Hours an employee worked in the shift (a report may hold several stints per employee). */
export const ShiftPersonnelEntryEntity = defineEntity({
  name: 'ShiftPersonnelEntry',
  tableName: 'shift_personnel_entry',
  properties: {
    ...entryKey(),
    personnelId: p.uuid(),
    positionId: p.uuid(),
    hoursWorked: p.decimal().precision(4).scale(2),
    downtimeHours: p.decimal().precision(4).scale(2),
    ...timestamps(),
  },
});

export type ShiftPersonnelEntry = InferEntity<typeof ShiftPersonnelEntryEntity>;

/** A stint of a machine in the shift, with its operator and meter readings. */
export const ShiftAssetUsageEntity = defineEntity({
  name: 'ShiftAssetUsage',
  tableName: 'shift_asset_usage',
  properties: {
    ...entryKey(),
    assetId: p.uuid(),
    operatorPersonnelId: p.uuid().nullable(),
    hoursWorked: p.decimal().precision(4).scale(2),
    meterReadingStart: p.decimal().precision(14).scale(2),
    meterReadingEnd: p.decimal().precision(14).scale(2),
    ...timestamps(),
  },
});

export type ShiftAssetUsage = InferEntity<typeof ShiftAssetUsageEntity>;

/** Drilling done by a machine's stint. */
export const ShiftDrillingEntryEntity = defineEntity({
  name: 'ShiftDrillingEntry',
  tableName: 'shift_drilling_entry',
  properties: {
    ...entryKey(),
    assetUsageId: p.uuid(),
    holesDrilled: p.integer(),
    depthMeters: p.decimal().precision(12).scale(2),
    drillBitWearPercent: p.decimal().precision(5).scale(2).nullable(),
    createdAt: createdAt(),
  },
});

export type ShiftDrillingEntry = InferEntity<typeof ShiftDrillingEntryEntity>;

/** Blasting done in the shift. */
export const ShiftBlastingEntryEntity = defineEntity({
  name: 'ShiftBlastingEntry',
  tableName: 'shift_blasting_entry',
  properties: {
    ...entryKey(),
    blocksBlasted: p.integer(),
    explosiveType: p.string().length(80),
    explosiveKg: p.decimal().precision(15).scale(3),
    permitId: p.uuid().nullable(),
    createdAt: createdAt(),
  },
});

export type ShiftBlastingEntry = InferEntity<typeof ShiftBlastingEntryEntity>;

/** Fuel issued to a machine's stint from a tank, and how much of it was consumed. */
export const ShiftFuelEntryEntity = defineEntity({
  name: 'ShiftFuelEntry',
  tableName: 'shift_fuel_entry',
  properties: {
    ...entryKey(),
    assetUsageId: p.uuid(),
    tankId: p.uuid(),
    fuelType: p.enum(['diesel', 'gasoline', 'lubricant'] as const).columnType('varchar(16)'),
    litersIssued: p.decimal().precision(12).scale(3),
    litersConsumed: p.decimal().precision(12).scale(3),
    createdAt: createdAt(),
  },
});

export type ShiftFuelEntry = InferEntity<typeof ShiftFuelEntryEntity>;

/** A downtime in the shift, of a machine's stint or of the whole object. */
export const ShiftDowntimeEntryEntity = defineEntity({
  name: 'ShiftDowntimeEntry',
  tableName: 'shift_downtime_entry',
  properties: {
    ...entryKey(),
    assetUsageId: p.uuid().nullable(),
    reasonCode: p.enum(['breakdown', 'maintenance', 'no_fuel', 'weather', 'other'] as const).columnType('varchar(16)'),
    startedAt: timestamptz(),
    endedAt: timestamptz(),
    description: p.string().length(2000).nullable(),
    createdAt: createdAt(),
  },
});

export type ShiftDowntimeEntry = InferEntity<typeof ShiftDowntimeEntryEntity>;

/** Stock a shift used, written off from a warehouse when the report is approved. */
export const ShiftMaterialUsageEntity = defineEntity({
  name: 'ShiftMaterialUsage',
  tableName: 'shift_material_usage',
  properties: {
    ...entryKey(),
    assetUsageId: p.uuid().nullable(),
    tmcItemId: p.uuid(),
    warehouseId: p.uuid(),
    quantity: p.decimal().precision(20).scale(3),
    unit: p.string().length(20),
    createdAt: createdAt(),
  },
});

export type ShiftMaterialUsage = InferEntity<typeof ShiftMaterialUsageEntity>;

/** The seven entry entities, one per entry table. */
export const SHIFT_ENTRY_ENTITIES = [
  ShiftPersonnelEntryEntity,
  ShiftAssetUsageEntity,
  ShiftDrillingEntryEntity,
  ShiftBlastingEntryEntity,
  ShiftFuelEntryEntity,
  ShiftDowntimeEntryEntity,
  ShiftMaterialUsageEntity,
];
