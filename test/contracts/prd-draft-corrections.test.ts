import { describe, expect, it } from 'vitest';
import type { OperationContract } from '../../contracts/operation.js';
import { SHIFT_REPORT_ENTRY_OPERATIONS } from '../../contracts/operations/prd/shift-report-entries.contract.js';
import { referenceFields } from '../../contracts/references.js';

/** A body past a bound of each entry kind's add. */
const PAST_BOUND: Record<keyof typeof SHIFT_REPORT_ENTRY_OPERATIONS, Record<string, unknown>> = {
  personnel: { hoursWorked: 24.01 },
  assetUsages: { meterReadingStart: -1 },
  drilling: { holesDrilled: 0 },
  blasting: { explosiveType: '' },
  fuel: { litersIssued: 1.0001 },
  downtime: { reasonCode: 'lunch' },
  materials: { quantity: 0 },
};

/** Each entry kind's add, correct and delete operations, with a body past a bound of the add. */
const KINDS: Array<[OperationContract, OperationContract, OperationContract, Record<string, unknown>]> = Object.entries(
  SHIFT_REPORT_ENTRY_OPERATIONS,
).map(([kind, { add, update, remove }]) => [add, update, remove, PAST_BOUND[kind as keyof typeof PAST_BOUND]]);

const ENTRY = '6f1c2a4e-0d3b-4c5e-8f7a-9b0c1d2e3f40';
const REPORT = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';

describe('corrections and deletions of shift-report entries', () => {
  it('admit exactly the roles of the addition, at the addition’s path and the entry’s id', () => {
    for (const [add, update, remove] of KINDS) {
      expect(update.access, update.name).toEqual(add.access);
      expect(remove.access, remove.name).toEqual(add.access);
      expect(update.rest[0]!.path, update.name).toBe(`${add.rest[0]!.path}/:entryId`);
      expect([update.rest[0]!.method, remove.rest[0]!.method, remove.rest[0]!.path], remove.name).toEqual([
        'PATCH',
        'DELETE',
        `${add.rest[0]!.path}/:entryId`,
      ]);
    }
  });

  it('declare the references of the addition, and take any subset of its fields with the same bounds', () => {
    for (const [add, update, , pastBound] of KINDS) {
      expect(referenceFields(update), update.name).toEqual(referenceFields(add));
      expect(Object.keys(update.input.body ?? {}).sort(), update.name).toEqual(Object.keys(add.input.body ?? {}).sort());
      expect(update.args.safeParse({ id: REPORT, entryId: ENTRY }).success, `${update.name} with no field`).toBe(true);
      expect(
        update.args.safeParse({ id: REPORT, entryId: ENTRY, ...pastBound }).success,
        `${update.name} ${JSON.stringify(pastBound)}`,
      ).toBe(false);
      expect(add.args.safeParse({ id: REPORT, ...pastBound }).success, add.name).toBe(false);
    }
  });
});
