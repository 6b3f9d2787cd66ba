import { z } from 'zod';
import { timestamps } from '../fields.js';

/**
 * Shift reports (PRD) and their child entries as the API returns them (seed 002, Resources:
 * Shift report and the seven entry kinds), and what the approval saga writes: availability and
 * utilization coefficients per asset and shift, production statistics per object and day.
 */

const at = () => z.string().nullable().describe('ISO 8601, null until it happens.');
const created = { createdAt: z.string().describe('ISO 8601.') };

/** Hours a shift is scheduled for: the base of the availability and utilization coefficients. */
export const SHIFT_HOURS = 12;

export const ShiftReportEntryDeleted = z
  .object({ id: z.uuid(), deleted: z.literal(true) })
  .meta({ id: 'ShiftReportEntryDeleted', description: 'The entry is gone from its draft report.' });

export const ShiftReportDeleted = z
  .object({ id: z.uuid(), deleted: z.literal(true) })
  .meta({ id: 'ShiftReportDeleted', description: 'The draft report and its entries are gone.' });

export const ShiftType = z.enum(['day', 'night']).meta({ id: 'ShiftType' });

export const ShiftReportStatus = z.enum(['draft', 'submitted', 'approved', 'rejected']).meta({
  id: 'ShiftReportStatus',
  description:
    '`draft` takes entries; `submitted` awaits approval or rejection; `approved` once its approval saga completed; `rejected` from submitted, or by the reverse saga from approved.',
});

export const FuelType = z.enum(['diesel', 'gasoline', 'lubricant']).meta({ id: 'ShiftFuelType' });

export const DowntimeReason = z
  .enum(['breakdown', 'maintenance', 'no_fuel', 'weather', 'other'])
  .meta({ id: 'ShiftDowntimeReason', description: 'Why the machine or crew stood.' });

export const ShiftReport = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    productionObjectId: z.uuid(),
    shiftDate: z.string().describe('YYYY-MM-DD.'),
    shiftType: ShiftType,
    status: ShiftReportStatus,
    createdBy: z.uuid().nullable().describe('Who drafted the report.'),
    submittedBy: z.uuid().nullable(),
    submittedAt: at(),
    approvedBy: z.uuid().nullable().describe('Who started the approval that completed.'),
    approvedAt: at(),
    approveSagaId: z.uuid().nullable().describe('The latest approval saga (`/api/v1/sagas/{id}/status`).'),
    rejectSagaId: z.uuid().nullable().describe('The reverse saga, once an approved report is reversed.'),
    rejectedBy: z.uuid().nullable(),
    rejectedAt: at(),
    rejectReason: z.string().nullable(),
    ...timestamps,
  })
  .meta({ id: 'ShiftReport', description: 'The report of one shift at one production object.' });

const entry = {
  id: z.uuid(),
  organizationId: z.uuid(),
  shiftReportId: z.uuid(),
};

export const ShiftPersonnelEntry = z
  .object({
    ...entry,
    personnelId: z.uuid(),
    positionId: z.uuid(),
    hoursWorked: z.number(),
    downtimeHours: z.number(),
    ...timestamps,
  })
  .meta({ id: 'ShiftPersonnelEntry', description: 'An employee’s hours in the shift; they go to the timesheet on approval.' });

export const ShiftAssetUsage = z
  .object({
    ...entry,
    assetId: z.uuid(),
    operatorPersonnelId: z.uuid().nullable(),
    hoursWorked: z.number(),
    meterReadingStart: z.number(),
    meterReadingEnd: z.number(),
    ...timestamps,
  })
  .meta({ id: 'ShiftAssetUsage', description: 'A machine’s work in the shift; its hours and meter go to the asset on approval.' });

export const ShiftDrillingEntry = z
  .object({
    ...entry,
    assetUsageId: z.uuid(),
    holesDrilled: z.int(),
    depthMeters: z.number(),
    drillBitWearPercent: z.number().nullable(),
    ...created,
  })
  .meta({ id: 'ShiftDrillingEntry' });

export const ShiftBlastingEntry = z
  .object({
    ...entry,
    blocksBlasted: z.int(),
    explosiveType: z.string(),
    explosiveKg: z.number(),
    permitId: z.uuid().nullable(),
    ...created,
  })
  .meta({ id: 'ShiftBlastingEntry' });

export const ShiftFuelEntry = z
  .object({
    ...entry,
    assetUsageId: z.uuid(),
    tankId: z.uuid(),
    fuelType: FuelType,
    litersIssued: z.number().describe('Taken out of the tank on approval.'),
    litersConsumed: z.number().describe('Burnt by the machine; at most `litersIssued`.'),
    ...created,
  })
  .meta({ id: 'ShiftFuelEntry' });

export const ShiftDowntimeEntry = z
  .object({
    ...entry,
    assetUsageId: z.uuid().nullable(),
    reasonCode: DowntimeReason,
    startedAt: z.string().describe('ISO 8601.'),
    endedAt: z.string().describe('ISO 8601, after `startedAt`.'),
    description: z.string().nullable(),
    ...created,
  })
  .meta({ id: 'ShiftDowntimeEntry' });

export const ShiftMaterialUsage = z
  .object({
    ...entry,
    assetUsageId: z.uuid().nullable(),
    tmcItemId: z.uuid(),
    warehouseId: z.uuid().describe('The warehouse the usage is written off on approval.'),
    quantity: z.number(),
    unit: z.string(),
    ...created,
  })
  .meta({ id: 'ShiftMaterialUsage' });

export const ShiftReportChildren = z
  .object({
    personnel: z.array(ShiftPersonnelEntry),
    assetUsages: z.array(ShiftAssetUsage),
    drilling: z.array(ShiftDrillingEntry),
    blasting: z.array(ShiftBlastingEntry),
    fuel: z.array(ShiftFuelEntry),
    downtime: z.array(ShiftDowntimeEntry),
    tmcUsage: z.array(ShiftMaterialUsage),
  })
  .meta({ id: 'ShiftReportChildren', description: 'Every entry of a report by kind, each oldest first.' });

export const ShiftReportApproval = z
  .object({ shiftReportId: z.uuid(), sagaId: z.uuid(), status: z.literal('enqueued') })
  .meta({ id: 'ShiftReportApproval', description: 'The approval saga started; the report becomes `approved` when it completes.' });

export const ShiftReportReversal = z
  .object({
    shiftReportId: z.uuid(),
    rejectSagaId: z.uuid(),
    originalApproveSagaId: z.uuid().nullable(),
    status: z.literal('enqueued'),
  })
  .meta({ id: 'ShiftReportReversal', description: 'The reverse saga started; the report becomes `rejected` when it completes.' });

export const AssetShiftCoefficient = z
  .object({
    id: z.uuid(),
    assetId: z.uuid(),
    productionObjectId: z.uuid(),
    shiftReportId: z.uuid(),
    shiftDate: z.string().describe('YYYY-MM-DD.'),
    shiftType: ShiftType,
    scheduledHours: z.number().describe(`Hours of a shift (${SHIFT_HOURS}).`),
    hoursWorked: z.number(),
    downtimeHours: z.number().describe('The asset’s downtime entries in the shift, at most the scheduled hours.'),
    availability: z.number().describe('(scheduled − downtime) / scheduled, 4 decimal places.'),
    utilization: z.number().describe('min(worked, available) / available (0 when nothing was available), 4 decimal places.'),
    sagaId: z.uuid().nullable().describe('The saga that wrote it.'),
    ...created,
  })
  .meta({ id: 'AssetShiftCoefficient', description: 'Availability and utilization of one asset in one approved shift.' });

export const ProductionStatistic = z
  .object({
    id: z.uuid(),
    productionObjectId: z.uuid(),
    statDate: z.string().describe('YYYY-MM-DD.'),
    reports: z.int().describe('Approved shift reports counted.'),
    holesDrilled: z.number(),
    depthMeters: z.number(),
    blocksBlasted: z.number(),
    explosiveKg: z.number(),
    fuelIssuedLiters: z.number(),
    fuelConsumedLiters: z.number(),
    machineHours: z.number(),
    downtimeHours: z.number().describe('Downtime entries, in hours.'),
    personnelHours: z.number(),
    personnelDowntimeHours: z.number(),
    updatedAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'ProductionStatistic', description: 'Production of one object on one day, summed over its approved shift reports.' });

export type ShiftReportData = z.output<typeof ShiftReport>;
export type ShiftReportStatusValue = z.output<typeof ShiftReportStatus>;
