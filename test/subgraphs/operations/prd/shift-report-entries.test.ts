import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hrTerminatePersonnel } from '../../../../contracts/operations/hr/personnel.contract.js';
import {
  prdAddShiftAssetUsage,
  prdAddShiftPersonnel,
  prdUpdateShiftPersonnel,
} from '../../../../contracts/operations/prd/shift-report-entries.contract.js';
import { prdCreateShiftReport, prdSubmitShiftReport } from '../../../../contracts/operations/prd/shift-reports.contract.js';
import { PersonnelStatusService } from '../../../../subgraphs/operations/hr/personnel-status.service.js';
import { ShiftReportEntriesService } from '../../../../subgraphs/operations/prd/shift-report-entries.service.js';
import { ShiftReportService } from '../../../../subgraphs/operations/prd/shift-report.service.js';
import { OperationsServices, outcome } from '../../../support/operations-services.js';

/** Shift report entries below HTTP: hours bounds per employee and per machine, and entries only while the report is a draft. */

let ops: OperationsServices;
let driller: { id: string };
let shifts = 0;
const entries = () => ops.get(ShiftReportEntriesService);

/** A draft report of NORTH, each on a day of its own. */
const report = (shiftDate = new Date(Date.UTC(2026, 0, 1 + shifts++)).toISOString().slice(0, 10)) =>
  ops.run('Engineer', prdCreateShiftReport, { productionObjectId: ops.north, shiftDate, shiftType: 'day' }, (input, em, caller) =>
    ops.get(ShiftReportService).create(em, caller, input),
  );
const personnel = (id: string, personnelId: string, hoursWorked: number) =>
  ops.run(
    'Engineer',
    prdAddShiftPersonnel,
    { id, personnelId, positionId: ops.positions.get('DRILLER'), hoursWorked, downtimeHours: 0 },
    (input, em) => entries().addPersonnel(em, input),
  );
const usage = (id: string, assetId: string, hoursWorked: number, meter = { meterReadingStart: 100, meterReadingEnd: 110 }) =>
  ops.run('Engineer', prdAddShiftAssetUsage, { id, assetId, hoursWorked, ...meter }, (input, em) => entries().addAssetUsage(em, input));
const submit = (id: string) =>
  ops.run('Engineer', prdSubmitShiftReport, { id }, (input, em, caller) => ops.get(ShiftReportService).submit(em, caller, input.id));

beforeAll(async () => {
  ops = await OperationsServices.start();
  driller = await ops.employee();
}, 120_000);
afterAll(async () => {
  await ops?.stop();
});

describe('hours bounds', () => {
  it('lets an employee’s entries in one report add up to 24 hours, and refuses more (VALIDATION_FAILED)', async () => {
    const { id } = await report();
    await personnel(id, driller.id, 12);
    await personnel(id, driller.id, 11.5);
    expect(await outcome(personnel(id, driller.id, 0.51))).toBe('VALIDATION_FAILED');
    expect(await outcome(personnel(id, driller.id, 0.5))).toBe('ok');
  });

  it('refuses a single entry above 24 hours before it reaches the service (VALIDATION_FAILED on hoursWorked)', async () => {
    const { id } = await report();
    expect(await outcome(personnel(id, driller.id, 24.5))).toBe('VALIDATION_FAILED:hoursWorked');
  });

  it('counts an employee’s hours per report: 24 hours in two reports are no excess', async () => {
    const [first, second] = [await report(), await report()];
    await personnel(first.id, driller.id, 20);
    expect(await outcome(personnel(second.id, driller.id, 20))).toBe('ok');
  });

  it('checks a corrected entry without counting its old hours, refusing only a real excess (VALIDATION_FAILED)', async () => {
    const { id } = await report();
    const entry = await personnel(id, driller.id, 12);
    await personnel(id, driller.id, 10);
    const correct = (hoursWorked: number) =>
      ops.run('Engineer', prdUpdateShiftPersonnel, { id, entryId: entry.id, hoursWorked }, (input, em) =>
        entries().updatePersonnel(em, input),
      );
    expect(await outcome(correct(14))).toBe('ok');
    expect(await outcome(correct(14.01))).toBe('VALIDATION_FAILED');
  });

  it('lets a machine’s usages in one report add up to the shift’s 12 hours, and refuses more (VALIDATION_FAILED)', async () => {
    const [{ id }, asset] = [await report(), await ops.asset()];
    await usage(id, asset.id, 8);
    await usage(id, asset.id, 4);
    expect(await outcome(usage(id, asset.id, 0.01))).toBe('VALIDATION_FAILED');
  });

  it('refuses a meter reading that ends below where it started (VALIDATION_FAILED)', async () => {
    const [{ id }, asset] = [await report(), await ops.asset()];
    expect(await outcome(usage(id, asset.id, 1, { meterReadingStart: 100, meterReadingEnd: 99.9 }))).toBe('VALIDATION_FAILED');
  });
});

describe('drafts', () => {
  it('takes entries only while the report is a draft: a submitted report refuses them (STATE_CONFLICT)', async () => {
    const { id } = await report();
    await personnel(id, driller.id, 8);
    expect((await submit(id)).status).toBe('submitted');
    expect(await outcome(personnel(id, driller.id, 1))).toBe('STATE_CONFLICT');
    expect(await outcome(submit(id))).toBe('STATE_CONFLICT');
  });

  it('refuses a second report for the same object, day and shift (PRD_SHIFT_REPORT_DUPLICATE)', async () => {
    await report('2025-06-01');
    expect(await outcome(report('2025-06-01'))).toBe('PRD_SHIFT_REPORT_DUPLICATE');
  });

  it('refuses entries for a terminated employee (PRD_REFERENCE_NOT_FOUND)', async () => {
    const [{ id }, leaver] = [await report(), await ops.employee()];
    await ops.run('Admin', hrTerminatePersonnel, { id: leaver.id, reason: 'Увольнение' }, (input, em) =>
      ops.get(PersonnelStatusService).terminate(em, input),
    );
    expect(await outcome(personnel(id, leaver.id, 8))).toBe('PRD_REFERENCE_NOT_FOUND');
  });

  it('refuses to terminate the operator of a machine in a draft report (HR_OPEN_ASSIGNMENTS)', async () => {
    const [{ id }, operator, asset] = [await report(), await ops.employee(), await ops.asset()];
    await ops.run(
      'Engineer',
      prdAddShiftAssetUsage,
      { id, assetId: asset.id, operatorPersonnelId: operator.id, hoursWorked: 6, meterReadingStart: 1, meterReadingEnd: 7 },
      (input, em) => entries().addAssetUsage(em, input),
    );
    const terminate = ops.run('Admin', hrTerminatePersonnel, { id: operator.id, reason: 'Увольнение' }, (input, em) =>
      ops.get(PersonnelStatusService).terminate(em, input),
    );
    expect(await outcome(terminate)).toBe('HR_OPEN_ASSIGNMENTS');
  });
});
