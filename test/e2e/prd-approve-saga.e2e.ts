import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import {
  approveReport,
  prdFixtures,
  readBalances,
  REPORTS,
  seedApprovableReport,
  type ExpectedEffects,
  type PrdFixtures,
} from '../support/prd.js';
import { settleSaga } from '../support/sagas.js';

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

const STEPS = ['fuel', 'materials', 'machine-hours', 'coefficients', 'statistics', 'timesheet'];

/** The saga's progress events: which step changed to what, in order. */
const events = async (sagaId: string) =>
  (
    (await get(`/api/v1/sagas/${sagaId}/events?limit=500`)).map((event: { step: string | null; status: string }) => [
      event.step,
      event.status,
    ]) as Array<[string | null, string]>
  ).filter(([step, status]) => step !== null && status !== 'running');

async function expectUntouched(reportId: string, before: Awaited<ReturnType<typeof readBalances>>) {
  expect(await readBalances(actors, fixtures)).toEqual(before);
  expect(await coefficients(reportId)).toEqual([]);
  expect(await timesheet(reportId)).toEqual([]);
}

describe('reversing an approved shift report', () => {
  it('undoes all six effects exactly and ends the report rejected; the shift can then be reported again', async () => {
    const before = await readBalances(actors, fixtures);
    // The day and the night shift of one date: both count in that day's statistics.
    const { reportId, shiftDate, shiftType, expected } = await seedApprovableReport(actors, fixtures, {
      shiftDate: '2024-06-01',
      shiftType: 'day',
    });
    const other = await seedApprovableReport(actors, fixtures, { shiftDate, shiftType: 'night' });
    const approveSagaId = await approveReport(actors, reportId);
    expect((await settleSaga(actors, approveSagaId)).status).toBe('completed');
    expect((await settleSaga(actors, await approveReport(actors, other.reportId))).status).toBe('completed');
    const [both] = await statistics(fixtures.objectId, expected.statistics.statDate);
    expect(both).toMatchObject({ reports: 2, holesDrilled: 2 * expected.statistics.holesDrilled });

    const tooShort = await actors.act('CEO', 'POST', `${REPORTS}/${reportId}/reverse`, { reason: 'too short' });
    expect([tooShort.status, tooShort.body.errors?.[0]?.field]).toEqual([422, 'reason']);
    for (const role of ['Engineer', 'Foreman', 'Admin'] as const) {
      expect((await actors.act(role, 'POST', `${REPORTS}/${reportId}/reverse`, { reason: 'Ошибка в учёте топлива' })).status).toBe(403);
    }
    const reversed = await actors.act('CEO', 'POST', `${REPORTS}/${reportId}/reverse`, { reason: 'Ошибка в учёте топлива' });
    expect(reversed.status).toBe(202);
    expect(reversed.body).toEqual({
      shiftReportId: reportId,
      rejectSagaId: expect.any(String),
      originalApproveSagaId: approveSagaId,
      status: 'enqueued',
    });
    const done = await settleSaga(actors, reversed.body.rejectSagaId);
    expect(done).toMatchObject({ type: 'prd.shift-report.reject-after-approve', status: 'completed' });
    expect(done.steps.map((step) => [step.name, step.status])).toEqual(STEPS.map((step) => [step, 'completed']));
    expect(await report(reportId)).toMatchObject({
      status: 'rejected',
      rejectReason: 'Ошибка в учёте топлива',
      rejectedBy: actors.userId('CEO'),
      rejectSagaId: reversed.body.rejectSagaId,
      approveSagaId,
    });

    // Only the other report's effects remain: exactly the state before, less what it took.
    await expectApplied(other.reportId, before, other.expected);
    expect(await coefficients(reportId)).toEqual([]);
    expect(await timesheet(reportId)).toEqual([]);
    const [left] = await statistics(fixtures.objectId, expected.statistics.statDate);
    const { productionObjectId, statDate, ...figures } = other.expected.statistics;
    expect(left).toMatchObject({ productionObjectId, statDate, reports: 1, ...figures });
    const ledger = await actors.query<{ kind: string; reversed: boolean }>(
      `select i.kind, i.reversed_by_id is not null as reversed from operations.fuel_issue i
       join operations.shift_fuel_entry e on e.id = i.reference_id where e.shift_report_id = $1 order by i.created_at, i.kind`,
      [reportId],
    );
    expect(ledger.filter((row) => row.kind === 'issue').every((row) => row.reversed)).toBe(true);
    expect(ledger.filter((row) => row.kind === 'reversal')).toHaveLength(fixtures.assetIds.length);

    // Reversing the other one too leaves every balance exactly where it started, and the day without statistics.
    const second = await actors.act('CEO', 'POST', `${REPORTS}/${other.reportId}/reverse`, { reason: 'Смена учтена дважды' });
    expect((await settleSaga(actors, second.body.rejectSagaId)).status).toBe('completed');
    expect(await readBalances(actors, fixtures)).toEqual(before);
    expect(await statistics(fixtures.objectId, expected.statistics.statDate)).toEqual([]);

    const again = await actors.act('Engineer', 'POST', REPORTS, {
      productionObjectId: fixtures.objectId,
      shiftDate,
      shiftType,
    });
    expect(again.status).toBe(201);
    const notApproved = await actors.act('CEO', 'POST', `${REPORTS}/${again.body.id}/reverse`, { reason: 'Ещё не утверждён' });
    expect([notApproved.status, notApproved.body.code]).toEqual([409, 'STATE_CONFLICT']);
  });
});

describe('a step that keeps failing', () => {
  it('is retried, then the done steps are compensated newest first: the report stays submitted and nothing is left', async () => {
    const before = await readBalances(actors, fixtures);
    const { reportId, expected } = await seedApprovableReport(actors, fixtures);
    const { statDate } = expected.statistics;
    const dayBefore = await statistics(fixtures.objectId, statDate);
    await actors.query(`alter table operations.timesheet_entry add constraint prd_test_block check (source_id <> '${reportId}')`);
    let sagaId: string;
    try {
      sagaId = await approveReport(actors, reportId);
      const ended = await settleSaga(actors, sagaId);
      expect(ended.status).toBe('compensated');
      expect(ended.error).toMatch(/^timesheet: .*prd_test_block/);
      expect(ended.steps.map((step) => [step.name, step.status])).toEqual([
        ...STEPS.slice(0, 5).map((step) => [step, 'compensated']),
        ['timesheet', 'failed'],
      ]);
      expect(ended.steps[5]!.attempts).toBe(5);
      const compensated = (await events(sagaId)).filter(([, status]) => status === 'compensated').map(([step]) => step);
      expect(compensated).toEqual(STEPS.slice(0, 5).reverse());
      expect(await report(reportId)).toMatchObject({ status: 'submitted', approveSagaId: sagaId, approvedAt: null });
      await expectUntouched(reportId, before);
      // The day's figures are back where they were (the row itself was touched twice).
      const figures = (rows: Array<Record<string, unknown>>) => rows.map(({ updatedAt: _at, ...row }) => row);
      expect(figures(await statistics(fixtures.objectId, statDate))).toEqual(figures(dayBefore));
      const outbox = await actors.events('prd.shift-report.approval-compensated');
      expect(outbox.at(-1)!.payload).toMatchObject({ shiftReportId: reportId, sagaId, cause: ended.error });

      const letters = await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters');
      const letter = letters.body.entries.find((entry: { sagaId: string }) => entry.sagaId === sagaId);
      expect(letter).toMatchObject({ queue: 'core-saga-steps', jobId: `${sagaId}__timesheet`, step: 'timesheet', attemptsMade: 5 });
      expect(letter.failedReason).toContain('prd_test_block');
    } finally {
      await actors.query(`alter table operations.timesheet_entry drop constraint if exists prd_test_block`);
    }

    // The cause fixed, the dead letter retried: the saga runs again from its first step and every effect applies once.
    const retried = await actors.act('Admin', 'POST', `/api/v1/core/sagas/dead-letters/core-saga-steps/${sagaId}__timesheet/retry`);
    expect(retried.body).toEqual({ queue: 'core-saga-steps', jobId: `${sagaId}__timesheet`, status: 'waiting' });
    const completed = await settleSaga(actors, sagaId, (body) => body.status === 'completed' || body.status === 'failed');
    expect(completed.status).toBe('completed');
    expect(completed.steps.every((step) => step.status === 'completed')).toBe(true);
    expect((await report(reportId)).status).toBe('approved');
    await expectApplied(reportId, before, expected);
    const [day] = await statistics(fixtures.objectId, statDate);
    const earlier = (dayBefore[0] ?? { reports: 0, fuelIssuedLiters: 0 }) as { reports: number; fuelIssuedLiters: number };
    expect(day).toMatchObject({
      reports: earlier.reports + 1,
      fuelIssuedLiters: fixed(earlier.fuelIssuedLiters + expected.statistics.fuelIssuedLiters),
    });
    const letters = await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters');
    expect(letters.body.entries.some((entry: { sagaId: string }) => entry.sagaId === sagaId)).toBe(false);
  });

  it('is not retried when a business rule refuses it (stock too low): fuel is given back at once', async () => {
    const before = await readBalances(actors, fixtures);
    const { reportId } = await seedApprovableReport(actors, fixtures, { materialKg: before.stockKg + 1 });
    const sagaId = await approveReport(actors, reportId);
    const ended = await settleSaga(actors, sagaId);
    expect(ended.status).toBe('compensated');
    expect(ended.error).toMatch(/^materials: TMC_INSUFFICIENT_STOCK/);
    expect(ended.steps.slice(0, 2).map((step) => [step.name, step.status, step.attempts])).toEqual([
      ['fuel', 'compensated', 1],
      ['materials', 'failed', 1],
    ]);
    expect((await report(reportId)).status).toBe('submitted');
    await expectUntouched(reportId, before);
    // A submitted report whose approval was compensated can still be rejected.
    const rejected = await actors.act('Engineer', 'POST', `${REPORTS}/${reportId}/reject`, { reason: 'Нет материала на складе' });
    expect(rejected.body.status).toBe('rejected');
  });

  it('leaves an approved report approved with every effect in place when its reverse keeps failing', async () => {
    const { reportId, expected } = await seedApprovableReport(actors, fixtures);
    const before = await readBalances(actors, fixtures);
    expect((await settleSaga(actors, await approveReport(actors, reportId))).status).toBe('completed');
    const [usage] = await actors.query<{ id: string }>(`select id from operations.shift_asset_usage where shift_report_id = $1 limit 1`, [
      reportId,
    ]);
    await actors.query(
      `alter table operations.asset_hours_entry add constraint prd_test_block check (kind <> 'reversal' or source_id <> '${usage!.id}')`,
    );
    try {
      const reversed = await actors.act('CEO', 'POST', `${REPORTS}/${reportId}/reverse`, { reason: 'Проверка компенсации' });
      const ended = await settleSaga(actors, reversed.body.rejectSagaId);
      expect(ended.status).toBe('compensated');
      expect(ended.error).toMatch(/^machine-hours: .*prd_test_block/);
      expect(ended.steps.slice(0, 3).map((step) => [step.name, step.status])).toEqual([
        ['fuel', 'compensated'],
        ['materials', 'compensated'],
        ['machine-hours', 'failed'],
      ]);
    } finally {
      await actors.query(`alter table operations.asset_hours_entry drop constraint if exists prd_test_block`);
    }
    expect(await report(reportId)).toMatchObject({ status: 'approved', rejectReason: null });
    await expectApplied(reportId, before, expected);
  });
});

describe('one saga at a time', () => {
  it('refuses a second approval and a rejection while the approval runs, and replays an approval by its key', async () => {
    const { reportId } = await seedApprovableReport(actors, fixtures);
    // Hold the fuel ledger still: the saga's first step waits for this transaction.
    const blocker = new pg.Client({ connectionString: actors.stack.databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table operations.fuel_issue in exclusive mode');
    let sagaId: string;
    try {
      const key = { 'idempotency-key': randomUUID() };
      const first = await actors.act('CEO', 'POST', `${REPORTS}/${reportId}/approve`, undefined, key);
      expect(first.status).toBe(202);
      sagaId = first.body.sagaId;
      const replay = await actors.act('CEO', 'POST', `${REPORTS}/${reportId}/approve`, undefined, key);
      expect([replay.status, replay.body.sagaId, replay.headers.get('idempotent-replayed')]).toEqual([202, sagaId, 'true']);
      const second = await actors.act('Engineer', 'POST', `${REPORTS}/${reportId}/approve`);
      expect([second.status, second.body.code]).toEqual([409, 'SAGA_ALREADY_RUNNING']);
      const reject = await actors.act('Engineer', 'POST', `${REPORTS}/${reportId}/reject`, { reason: 'Слишком поздно' });
      expect([reject.status, reject.body.code]).toEqual([409, 'SAGA_ALREADY_RUNNING']);
      expect((await report(reportId)).status).toBe('submitted');
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await settleSaga(actors, sagaId)).status).toBe('completed');
    const again = await actors.act('CEO', 'POST', `${REPORTS}/${reportId}/approve`);
    expect([again.status, again.body.code]).toEqual([409, 'STATE_CONFLICT']);
  });
});
