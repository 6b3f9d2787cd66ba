import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { ops } from '../fields.js';
import { decimalPlaces } from '../scm/decimals.js';
import { PrdErrorCode } from './errors.js';
import { PRD_AUTHORS } from './shift-reports.contract.js';
import {
  DowntimeReason,
  FuelType,
  ShiftAssetUsage,
  ShiftBlastingEntry,
  ShiftDowntimeEntry,
  ShiftDrillingEntry,
  ShiftFuelEntry,
  ShiftMaterialUsage,
  ShiftPersonnelEntry,
} from './types.js';

/**
 * The seven kinds of entries of a shift report (seed 002, Shift reports (PRD)), accepted only
 * while the report is a draft (409 `STATE_CONFLICT` after). Bounds are the seed's; numbers carry
 * at most the decimal places their columns keep, so nothing is rounded on the way in. Rules that
 * span fields (`litersConsumed` ≤ `litersIssued`, `endedAt` after `startedAt`, the meter not
 * running backwards) and references to other records are checked by the service (422).
 */

const INT_MAX = 2_147_483_647;

const scaled = (schema: z.ZodNumber, places: number, what: string) =>
  schema.refine((value) => decimalPlaces(value) <= places, { error: `must have at most ${places} decimal places` }).describe(what);

const hours = (what: string) => scaled(z.number().min(0).max(24), 2, `${what}: 0 to 24, up to 2 decimal places.`);
const meter = (what: string) => scaled(z.number().min(0).max(1_000_000_000), 2, `${what}: at least 0, up to 2 decimal places.`);
const liters = (what: string) => scaled(z.number().min(0).max(1_000_000), 3, `${what}: at least 0, up to 3 decimal places.`);

const path = (kind: string) => `/api/v1/prd/shift-reports/:id/${kind}`;
const ENTRY_ERRORS = [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT, PrdErrorCode.PRD_REFERENCE_NOT_FOUND];

const addEntry = <const B extends Record<string, z.ZodType>>(
  name: string,
  kind: string,
  summary: string,
  body: B,
  output: z.ZodType,
  description: string,
  errors = ENTRY_ERRORS,
) =>
  defineOperation({
    service: 'operations',
    tags: ['prd: shift reports'],
    name,
    kind: 'mutation',
    summary,
    description: `${description} Only while the report is a draft.`,
    access: members(PRD_AUTHORS),
    idempotency: 'required',
    input: { path: { id: ops.id() }, body },
    output,
    rest: { method: 'POST', path: path(kind), status: 201 },
    errors,
  });

export const prdAddShiftPersonnel = addEntry(
  'prdAddShiftPersonnel',
  'personnel',
  'Add a personnel entry',
  {
    personnelId: ops.ref('hr.personnel'),
    positionId: ops.ref('hr.position'),
    hoursWorked: hours('Hours worked'),
    downtimeHours: hours('Hours stood idle'),
  },
  ShiftPersonnelEntry,
  'An employee (not terminated) and the position worked; one entry per employee and report (409 `PRD_ENTRY_DUPLICATE`).',
  [...ENTRY_ERRORS, PrdErrorCode.PRD_ENTRY_DUPLICATE],
);

export const prdAddShiftAssetUsage = addEntry(
  'prdAddShiftAssetUsage',
  'asset-usages',
  'Add an asset usage',
  {
    assetId: ops.ref('eam.asset'),
    operatorPersonnelId: ops.ref('hr.personnel').nullable().optional().describe('The operator (an employee, not terminated), or null.'),
    hoursWorked: hours('Machine hours'),
    meterReadingStart: meter('Meter at the start of the shift'),
    meterReadingEnd: meter('Meter at the end of the shift, not below the start'),
  },
  ShiftAssetUsage,
  'A machine (not decommissioned) and its hours and meter; one usage per asset and report (409 `PRD_ENTRY_DUPLICATE`).',
  [...ENTRY_ERRORS, PrdErrorCode.PRD_ENTRY_DUPLICATE],
);

export const prdAddShiftDrilling = addEntry(
  'prdAddShiftDrilling',
  'drilling',
  'Add a drilling entry',
  {
    assetUsageId: ops.ref('prd.asset-usage').describe('An asset usage of this report.'),
    holesDrilled: z.int().min(1).max(INT_MAX),
    depthMeters: scaled(z.number().gt(0).max(1_000_000), 2, 'Metres drilled: above 0, up to 2 decimal places.'),
    drillBitWearPercent: scaled(z.number().min(0).max(100), 2, 'Wear of the drill bit: 0 to 100, up to 2 decimal places.')
      .nullable()
      .optional(),
  },
  ShiftDrillingEntry,
  'Holes drilled by one of the report’s machines.',
);

export const prdAddShiftBlasting = addEntry(
  'prdAddShiftBlasting',
  'blasting',
  'Add a blasting entry',
  {
    blocksBlasted: z.int().min(0).max(INT_MAX),
    explosiveType: ops.text(1, 80),
    explosiveKg: scaled(z.number().min(0).max(1_000_000_000), 3, 'Explosive used, kg: at least 0, up to 3 decimal places.'),
    permitId: ops.id().nullable().optional().describe('The blasting permit, or null.'),
  },
  ShiftBlastingEntry,
  'Blocks blasted and the explosive used.',
);

export const prdAddShiftFuel = addEntry(
  'prdAddShiftFuel',
  'fuel',
  'Add a fuel entry',
  {
    assetUsageId: ops.ref('prd.asset-usage').describe('An asset usage of this report.'),
    tankId: ops.ref('scm.fuel-tank').describe('The tank the fuel is issued from on approval.'),
    fuelType: FuelType,
    litersIssued: liters('Litres issued'),
    litersConsumed: liters('Litres consumed, not above `litersIssued`'),
  },
  ShiftFuelEntry,
  'Fuel issued to one of the report’s machines; the approval takes `litersIssued` out of the tank.',
);

export const prdAddShiftDowntime = addEntry(
  'prdAddShiftDowntime',
  'downtime',
  'Add a downtime entry',
  {
    assetUsageId: ops.ref('prd.asset-usage').nullable().optional().describe('An asset usage of this report, or null for the whole crew.'),
    reasonCode: DowntimeReason,
    startedAt: ops.dateTime(),
    endedAt: ops.dateTime().describe('After `startedAt`.'),
    description: ops.text(0, 2000).nullable().optional(),
  },
  ShiftDowntimeEntry,
  'A stop of a machine (or of the crew); it lowers the machine’s availability.',
);

export const prdAddShiftMaterial = addEntry(
  'prdAddShiftMaterial',
  'materials',
  'Add a material usage',
  {
    assetUsageId: ops.ref('prd.asset-usage').nullable().optional().describe('An asset usage of this report, or null.'),
    tmcItemId: ops.ref('scm.tmc-item').describe('An active TMC item.'),
    quantity: scaled(z.number().gt(0).max(1_000_000_000), 3, 'Quantity used: above 0, up to 3 decimal places.'),
    unit: ops.text(1, 20).describe('The unit the item is counted in (e.g. `шт`).'),
    warehouseId: ops
      .ref('scm.warehouse')
      .nullable()
      .optional()
      .describe('The warehouse to write the usage off on approval; by default the single active warehouse of the report’s object.'),
  },
  ShiftMaterialUsage,
  'TMC used in the shift; the approval writes it off stock.',
  [...ENTRY_ERRORS, PrdErrorCode.PRD_UNIT_MISMATCH, PrdErrorCode.PRD_WAREHOUSE_REQUIRED],
);

export const SHIFT_REPORT_ENTRY_CONTRACTS = [
  prdAddShiftPersonnel,
  prdAddShiftAssetUsage,
  prdAddShiftDrilling,
  prdAddShiftBlasting,
  prdAddShiftFuel,
  prdAddShiftDowntime,
  prdAddShiftMaterial,
] as const;
