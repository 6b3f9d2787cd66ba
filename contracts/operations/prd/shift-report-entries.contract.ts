import { z } from 'zod';
import type { ErrorKey } from '../../errors.js';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { ops } from '../fields.js';
import { decimalPlaces } from '../scm/decimals.js';
import { PrdErrorCode } from './errors.js';
import { PRD_AUTHORS } from './shift-reports.contract.js';
import {
  DowntimeReason,
  SHIFT_HOURS,
  FuelType,
  ShiftAssetUsage,
  ShiftBlastingEntry,
  ShiftDowntimeEntry,
  ShiftDrillingEntry,
  ShiftFuelEntry,
  ShiftMaterialUsage,
  ShiftPersonnelEntry,
  ShiftReportEntryDeleted,
} from './types.js';

/**
 * The seven kinds of entries of a shift report (seed 002, Shift reports (PRD)), added, corrected
 * and deleted only while the report is a draft (409 `STATE_CONFLICT` after). Bounds are the
 * seed's; numbers carry at most the decimal places their columns keep, so nothing is rounded on
 * the way in. Rules that span fields (`litersConsumed` ≤ `litersIssued`, `endedAt` after
 * `startedAt`, the meter not running backwards), bounds across entries (an employee's hours in a
 * report at most 24, a machine's at most the shift's `SHIFT_HOURS`) and references to other
 * records are checked by the service (422) — on a correction, against the entry as it becomes.
 */

const INT_MAX = 2_147_483_647;

const scaled = (schema: z.ZodNumber, places: number, what: string) =>
  schema.refine((value) => decimalPlaces(value) <= places, { error: `must have at most ${places} decimal places` }).describe(what);

const hours = (what: string) => scaled(z.number().min(0).max(24), 2, `${what}: 0 to 24, up to 2 decimal places.`);
const meter = (what: string) => scaled(z.number().min(0).max(1_000_000_000), 2, `${what}: at least 0, up to 2 decimal places.`);
const liters = (what: string) => scaled(z.number().min(0).max(1_000_000), 3, `${what}: at least 0, up to 3 decimal places.`);

const path = (kind: string) => `/api/v1/prd/shift-reports/:id/${kind}`;
const ENTRY_ERRORS = [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT, PrdErrorCode.PRD_REFERENCE_NOT_FOUND];
const BY_ENTRY = { id: ops.id().describe('The shift report.'), entryId: ops.id().describe('The entry of that report.') };

type Shape = Record<string, z.ZodType>;

/** Every field of an add body, optional: a correction names only what changes. */
const partial = <B extends Shape>(body: B) =>
  Object.fromEntries(Object.entries(body).map(([key, schema]) => [key, schema.optional()])) as { [K in keyof B]: z.ZodOptional<B[K]> };

interface EntryKind<B extends Shape> {
  /** Path segment, e.g. `asset-usages`. */
  readonly kind: string;
  /** Name stem of the operations, e.g. `ShiftAssetUsage`. */
  readonly stem: string;
  /** What one entry is, e.g. `an asset usage`. */
  readonly noun: string;
  readonly body: B;
  readonly output: z.ZodType;
  readonly description: string;
  readonly errors?: readonly ErrorKey[];
}

const base = { service: 'operations', tags: ['prd: shift reports'], kind: 'mutation', access: members(PRD_AUTHORS) } as const;

/** The add, correct and delete operations of one entry kind: same roles, bounds and rules. */
const entryOperations = <const B extends Shape>(entry: EntryKind<B>) => {
  const errors = [...ENTRY_ERRORS, ...(entry.errors ?? [])];
  return {
    add: defineOperation({
      ...base,
      name: `prdAdd${entry.stem}`,
      summary: `Add ${entry.noun}`,
      description: `${entry.description} Only while the report is a draft.`,
      idempotency: 'required',
      input: { path: { id: ops.id() }, body: entry.body },
      output: entry.output,
      rest: { method: 'POST', path: path(entry.kind), status: 201 },
      errors,
    }),
    update: defineOperation({
      ...base,
      name: `prdUpdate${entry.stem}`,
      summary: `Correct ${entry.noun}`,
      description: `Changes the fields named; the entry as it becomes is checked as when it is added (every bound and rule, 422). Only while the report is a draft. ${entry.description}`,
      idempotency: 'required',
      input: { path: BY_ENTRY, body: partial(entry.body) },
      output: entry.output,
      rest: { method: 'PATCH', path: `${path(entry.kind)}/:entryId` },
      errors,
    }),
    remove: defineOperation({
      ...base,
      name: `prdDelete${entry.stem}`,
      summary: `Delete ${entry.noun}`,
      description:
        entry.kind === 'asset-usages'
          ? 'Only while the report is a draft. A usage that other entries of the report name (drilling, fuel, downtime, materials) is refused with 409 `PRD_ENTRY_IN_USE` listing them: delete or re-point them first.'
          : 'Only while the report is a draft.',
      idempotency: 'required',
      input: { path: BY_ENTRY },
      output: ShiftReportEntryDeleted,
      rest: { method: 'DELETE', path: `${path(entry.kind)}/:entryId` },
      errors:
        entry.kind === 'asset-usages'
          ? [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT, PrdErrorCode.PRD_ENTRY_IN_USE]
          : [OperationsErrorCode.RECORD_NOT_FOUND, OperationsErrorCode.STATE_CONFLICT],
    }),
  };
};

const personnel = entryOperations({
  kind: 'personnel',
  stem: 'ShiftPersonnel',
  noun: 'a personnel entry',
  body: {
    personnelId: ops.ref('hr.personnel'),
    positionId: ops.ref('hr.position'),
    hoursWorked: hours('Hours worked'),
    downtimeHours: hours('Hours stood idle'),
  },
  output: ShiftPersonnelEntry,
  description:
    'An employee (not terminated) and the position worked. An employee may have several entries in a report; their `hoursWorked` add up to at most 24 (422).',
});

const assetUsages = entryOperations({
  kind: 'asset-usages',
  stem: 'ShiftAssetUsage',
  noun: 'an asset usage',
  body: {
    assetId: ops.ref('eam.asset'),
    operatorPersonnelId: ops.ref('hr.personnel').nullable().optional().describe('The operator (an employee, not terminated), or null.'),
    hoursWorked: hours('Machine hours'),
    meterReadingStart: meter('Meter at the start of the shift'),
    meterReadingEnd: meter('Meter at the end of the shift, not below the start'),
  },
  output: ShiftAssetUsage,
  description: `A machine (not decommissioned) and its hours and meter. A machine used in several stints has a usage each; their \`hoursWorked\` add up to at most the shift's ${SHIFT_HOURS} hours (422).`,
});

const drilling = entryOperations({
  kind: 'drilling',
  stem: 'ShiftDrilling',
  noun: 'a drilling entry',
  body: {
    assetUsageId: ops.ref('prd.asset-usage').describe('An asset usage of this report.'),
    holesDrilled: z.int().min(1).max(INT_MAX),
    depthMeters: scaled(z.number().gt(0).max(1_000_000), 2, 'Metres drilled: above 0, up to 2 decimal places.'),
    drillBitWearPercent: scaled(z.number().min(0).max(100), 2, 'Wear of the drill bit: 0 to 100, up to 2 decimal places.')
      .nullable()
      .optional(),
  },
  output: ShiftDrillingEntry,
  description: 'Holes drilled by one of the report’s machines.',
});

const blasting = entryOperations({
  kind: 'blasting',
  stem: 'ShiftBlasting',
  noun: 'a blasting entry',
  body: {
    blocksBlasted: z.int().min(0).max(INT_MAX),
    explosiveType: ops.text(1, 80),
    explosiveKg: scaled(z.number().min(0).max(1_000_000_000), 3, 'Explosive used, kg: at least 0, up to 3 decimal places.'),
    permitId: ops.id().nullable().optional().describe('The blasting permit, or null.'),
  },
  output: ShiftBlastingEntry,
  description: 'Blocks blasted and the explosive used.',
});

const fuel = entryOperations({
  kind: 'fuel',
  stem: 'ShiftFuel',
  noun: 'a fuel entry',
  body: {
    assetUsageId: ops.ref('prd.asset-usage').describe('An asset usage of this report.'),
    tankId: ops.ref('scm.fuel-tank').describe('The tank the fuel is issued from on approval.'),
    fuelType: FuelType,
    litersIssued: liters('Litres issued'),
    litersConsumed: liters('Litres consumed, not above `litersIssued`'),
  },
  output: ShiftFuelEntry,
  description: 'Fuel issued to one of the report’s machines; the approval takes `litersIssued` out of the tank.',
});

const downtime = entryOperations({
  kind: 'downtime',
  stem: 'ShiftDowntime',
  noun: 'a downtime entry',
  body: {
    assetUsageId: ops.ref('prd.asset-usage').nullable().optional().describe('An asset usage of this report, or null for the whole crew.'),
    reasonCode: DowntimeReason,
    startedAt: ops.dateTime(),
    endedAt: ops.dateTime().describe('After `startedAt`.'),
    description: ops.text(0, 2000).nullable().optional(),
  },
  output: ShiftDowntimeEntry,
  description: 'A stop of a machine (or of the crew); it lowers the machine’s availability.',
});

const materials = entryOperations({
  kind: 'materials',
  stem: 'ShiftMaterial',
  noun: 'a material usage',
  body: {
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
  output: ShiftMaterialUsage,
  description: 'TMC used in the shift; the approval writes it off stock.',
  errors: [PrdErrorCode.PRD_UNIT_MISMATCH, PrdErrorCode.PRD_WAREHOUSE_REQUIRED],
});

export const prdAddShiftPersonnel = personnel.add;
export const prdUpdateShiftPersonnel = personnel.update;
export const prdDeleteShiftPersonnel = personnel.remove;
export const prdAddShiftAssetUsage = assetUsages.add;
export const prdUpdateShiftAssetUsage = assetUsages.update;
export const prdDeleteShiftAssetUsage = assetUsages.remove;
export const prdAddShiftDrilling = drilling.add;
export const prdUpdateShiftDrilling = drilling.update;
export const prdDeleteShiftDrilling = drilling.remove;
export const prdAddShiftBlasting = blasting.add;
export const prdUpdateShiftBlasting = blasting.update;
export const prdDeleteShiftBlasting = blasting.remove;
export const prdAddShiftFuel = fuel.add;
export const prdUpdateShiftFuel = fuel.update;
export const prdDeleteShiftFuel = fuel.remove;
export const prdAddShiftDowntime = downtime.add;
export const prdUpdateShiftDowntime = downtime.update;
export const prdDeleteShiftDowntime = downtime.remove;
export const prdAddShiftMaterial = materials.add;
export const prdUpdateShiftMaterial = materials.update;
export const prdDeleteShiftMaterial = materials.remove;

/** Each entry kind's add, correct and delete operations, by kind. */
export const SHIFT_REPORT_ENTRY_OPERATIONS = { personnel, assetUsages, drilling, blasting, fuel, downtime, materials } as const;

const kinds = Object.values(SHIFT_REPORT_ENTRY_OPERATIONS);

/** Every entry operation: the adds, then the corrections, then the deletions. */
export const SHIFT_REPORT_ENTRY_CONTRACTS = [
  ...kinds.map((kind) => kind.add),
  ...kinds.map((kind) => kind.update),
  ...kinds.map((kind) => kind.remove),
];
