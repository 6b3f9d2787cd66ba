import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import {
  approveReport,
  prdFixtures,
  readBalances,
  REPORTS,
  seedApprovableReport,
  settleSaga,
  type ExpectedEffects,
  type PrdFixtures,
} from '../support/prd.js';

/**
 * The approval and reverse sagas of shift reports, over REST against a real stack: the six effects
 * of an approval (tank balances and issue records, stock and its movements, machine hours and
 * meters, availability and utilization, production statistics, the timesheet) are exact; a reverse
 * restores every balance exactly; a step that keeps failing compensates the done steps in reverse
 * order, lands in the dead letters, and completes when retried once its cause is gone. Failures are
 * real: a database constraint the step's write breaks, dropped to fix it.
 */

let actors: Actors;
let fixtures: PrdFixtures;

const get = async (path: string, role: Parameters<Actors['act']>[0] = 'CEO') => {
  const response = await actors.act(role, 'GET', path);
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body;
};

const report = (id: string) => get(`${REPORTS}/${id}`);
const coefficients = async (reportId: string) =>
  ((await get(`/api/v1/prd/asset-coefficients?shiftReportId=${reportId}`)).items as Array<Record<string, unknown>>).sort((a, b) =>
    String(a.assetId).localeCompare(String(b.assetId)),
  );
const statistics = async (objectId: string, date: string) =>
  (await get(`/api/v1/prd/statistics?productionObjectId=${objectId}&dateFrom=${date}&dateTo=${date}`)).items as Array<
    Record<string, unknown>
  >;
const timesheet = async (reportId: string) =>
  (await get(`/api/v1/hr/timesheet?sourceId=${reportId}`)).items as Array<Record<string, unknown>>;

/** Round to the places the columns keep, so float sums compare with exact values. */
const fixed = (value: number, places = 3) => Number(value.toFixed(places));

async function expectApplied(reportId: string, before: Awaited<ReturnType<typeof readBalances>>, expected: ExpectedEffects) {
  const after = await readBalances(actors, fixtures);
  expect(after.tankLiters).toBe(fixed(before.tankLiters - expected.fuel[fixtures.tankId]!));
  expect(after.stockKg).toBe(fixed(before.stockKg - expected.stock[`${fixtures.warehouseId}:${fixtures.itemId}`]!));
  for (const assetId of fixtures.assetIds) {
    expect(after.assets[assetId]!.machineHours).toBe(fixed(before.assets[assetId]!.machineHours + expected.machineHours[assetId]!.hours));
    expect(after.assets[assetId]!.meterReading).toBe(
      Math.max(before.assets[assetId]!.meterReading ?? 0, expected.machineHours[assetId]!.meterEnd),
    );
  }
  const rows = await coefficients(reportId);
  expect(rows.map((row) => [row.assetId, row.availability, row.utilization, row.downtimeHours])).toEqual(
    [...fixtures.assetIds]
      .sort()
      .map((assetId) => [
        assetId,
        expected.coefficients[assetId]!.availability,
        expected.coefficients[assetId]!.utilization,
        expected.coefficients[assetId]!.downtimeHours,
      ]),
  );
  const sheet = await timesheet(reportId);
  expect(
    Object.fromEntries(sheet.map((row) => [row.personnelId, { hoursWorked: row.hoursWorked, downtimeHours: row.downtimeHours }])),
  ).toEqual(expected.timesheet);
}

beforeAll(async () => {
  actors = await Actors.start();
  fixtures = await prdFixtures(actors, { objectId: actors.north, tankLiters: 5000, stock: 100 });
}, 120_000);
afterAll(async () => {
  await actors?.stop();
});

describe('approving a shift report', () => {
  it('runs the six steps in order and applies each effect exactly; the report ends approved', async () => {
    const { reportId, expected } = await seedApprovableReport(actors, fixtures);
    const before = await readBalances(actors, fixtures);
    const sagaId = await approveReport(actors, reportId);
    expect((await report(reportId)).approveSagaId).toBe(sagaId);
    const done = await settleSaga(actors, sagaId);
    expect(done).toMatchObject({ sagaId, type: 'prd.shift-report.approve', status: 'completed', error: null });
    expect(done.steps.map((step) => [step.name, step.status, step.attempts])).toEqual([
      ['fuel', 'completed', 1],
      ['materials', 'completed', 1],
      ['machine-hours', 'completed', 1],
      ['coefficients', 'completed', 1],
      ['statistics', 'completed', 1],
      ['timesheet', 'completed', 1],
    ]);
    expect(await report(reportId)).toMatchObject({ status: 'approved', approvedBy: actors.userId('CEO'), approveSagaId: sagaId });
    await expectApplied(reportId, before, expected);
    const [day] = await statistics(fixtures.objectId, expected.statistics.statDate);
    const { productionObjectId, statDate, ...figures } = expected.statistics;
    expect(day).toMatchObject({ productionObjectId, statDate, reports: 1, ...figures });
  });
});
