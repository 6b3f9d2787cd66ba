import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { Actors } from '../support/actors.js';
import { addMember, call, createOrganization, idempotencyKey, login, SUPER_ADMIN } from '../support/operations.js';
import { approveReport, nextShift, prdFixtures, REPORTS, seedApprovableReport, type PrdFixtures } from '../support/prd.js';
import { settleSaga } from '../support/sagas.js';

/**
 * Shift reports over REST: drafts and their uniqueness per shift, every transition of the seed's
 * table and every refused one with the roles it names, each kind of entry with every documented
 * bound and rule, entries only in draft, the snapshot, the list (paging, filters, order), another
 * organization's report as missing as an unknown one, and GraphQL.
 */

let actors: Actors;
let fixtures: PrdFixtures;

type Body = Record<string, unknown>;
const act = (role: OperationsRole, method: string, path: string, body?: unknown) => actors.act(role, method, path, body);

async function draft(role: OperationsRole = 'Engineer', objectId = actors.north): Promise<Body & { id: string }> {
  const created = await act(role, 'POST', REPORTS, { productionObjectId: objectId, ...nextShift() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const add = (reportId: string, kind: string, body: Body, role: OperationsRole = 'Engineer') =>
  act(role, 'POST', `${REPORTS}/${reportId}/${kind}`, body);

/** An asset usage of the report; returns its id. */
async function usage(reportId: string, assetId = fixtures.assetIds[0]!): Promise<string> {
  const added = await add(reportId, 'asset-usages', { assetId, hoursWorked: 8, meterReadingStart: 10, meterReadingEnd: 18 });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body.id;
}

/** Asserts each body answers 422 naming `field` (and `code` when given). */
async function refused(reportId: string, kind: string, base: Body, cases: Array<[Body, string, string?]>) {
  for (const [overrides, field, code] of cases) {
    const response = await add(reportId, kind, { ...base, ...overrides });
    const where = `${kind} ${JSON.stringify(overrides)}`;
    expect(response.status, where).toBe(422);
    if (code) expect(response.body.code, where).toBe(code);
    const fields = [response.body.errors?.map((error: { field: string }) => error.field), response.body.param].flat();
    expect(fields, where).toContain(field);
  }
}

async function accepted(reportId: string, kind: string, base: Body, cases: Body[]) {
  for (const overrides of cases) {
    const response = await add(reportId, kind, { ...base, ...overrides });
    expect(response.status, `${kind} ${JSON.stringify(overrides)}: ${JSON.stringify(response.body)}`).toBe(201);
  }
}

beforeAll(async () => {
  actors = await Actors.start();
  fixtures = await prdFixtures(actors, { objectId: actors.north, assets: 3, personnel: 3 });
}, 120_000);
afterAll(async () => {
  await actors?.stop();
});

describe('drafts', () => {
  it('creates a draft with every field of the seed, one per organization, object, date and shift type (409)', async () => {
    const shift = nextShift();
    const created = await act('Foreman', 'POST', REPORTS, { productionObjectId: actors.north, ...shift });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      organizationId: actors.sessions.get('Foreman')!.organizationId,
      productionObjectId: actors.north,
      shiftDate: shift.shiftDate,
      shiftType: shift.shiftType,
      status: 'draft',
      createdBy: actors.userId('Foreman'),
      submittedBy: null,
      submittedAt: null,
      approvedBy: null,
      approvedAt: null,
      approveSagaId: null,
      rejectSagaId: null,
      rejectedBy: null,
      rejectedAt: null,
      rejectReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await act('CEO', 'GET', `${REPORTS}/${created.body.id}`)).body).toEqual(created.body);
    const duplicate = await act('Engineer', 'POST', REPORTS, { productionObjectId: actors.north, ...shift });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'PRD_SHIFT_REPORT_DUPLICATE']);
    const otherType = shift.shiftType === 'day' ? 'night' : 'day';
    expect((await act('Engineer', 'POST', REPORTS, { productionObjectId: actors.north, ...shift, shiftType: otherType })).status).toBe(201);
    expect((await act('Engineer', 'POST', REPORTS, { productionObjectId: actors.south, ...shift })).status).toBe(201);
  });

  it('refuses a body past its bounds, an object the caller cannot see, the roles that do not draft, and a missing key', async () => {
    const shift = nextShift();
    for (const body of [
      {},
      { ...shift },
      { productionObjectId: actors.north, shiftDate: shift.shiftDate },
      { productionObjectId: actors.north, shiftDate: '2026-02-30', shiftType: 'day' },
      { productionObjectId: actors.north, shiftDate: '25.11.2026', shiftType: 'day' },
      { productionObjectId: actors.north, shiftDate: shift.shiftDate, shiftType: 'evening' },
      { productionObjectId: 'north', ...shift },
    ]) {
      expect((await act('Engineer', 'POST', REPORTS, body)).status, JSON.stringify(body)).toBe(422);
    }
    const unknown = await act('Engineer', 'POST', REPORTS, { productionObjectId: randomUUID(), ...shift });
    expect([unknown.status, unknown.body.code, unknown.body.errors?.[0]?.field]).toEqual([
      422,
      'PRD_REFERENCE_NOT_FOUND',
      'productionObjectId',
    ]);
    // A Foreman works at NORTH only: SOUTH is as unknown to them.
    const foreign = await act('Foreman', 'POST', REPORTS, { productionObjectId: actors.south, ...shift });
    expect([foreign.status, foreign.body.code]).toEqual([422, 'PRD_REFERENCE_NOT_FOUND']);
    for (const role of ['CEO', 'Admin', 'Mechanic', 'Supply', 'OtibSpecialist'] as const) {
      const response = await act(role, 'POST', REPORTS, { productionObjectId: actors.north, ...shift });
      expect([response.status, response.body.code], role).toEqual([403, 'ROLE_FORBIDDEN']);
    }
    const session = actors.sessions.get('Engineer')!;
    const keyless = await call(actors.stack, session, 'POST', REPORTS, { productionObjectId: actors.north, ...shift });
    expect([keyless.status, keyless.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
  });
});

describe('states and transitions', () => {
  it('submits a draft (Foreman, Engineer) once; other roles may not', async () => {
    const report = await draft('Foreman');
    for (const role of ['CEO', 'Admin', 'Mechanic', 'Supply'] as const) {
      expect((await act(role, 'POST', `${REPORTS}/${report.id}/submit`)).status, role).toBe(403);
    }
    const submitted = await act('Foreman', 'POST', `${REPORTS}/${report.id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'submitted', submittedBy: actors.userId('Foreman'), submittedAt: expect.any(String) });
    const again = await act('Engineer', 'POST', `${REPORTS}/${report.id}/submit`);
    expect([again.status, again.body.code]).toEqual([409, 'STATE_CONFLICT']);
    const other = await draft('Engineer');
    expect((await act('Engineer', 'POST', `${REPORTS}/${other.id}/submit`)).body.status).toBe('submitted');
  });

  it('rejects a submitted report (Engineer, CEO; reason 5 to 500) to the audit log and an event; the shift can be reported again', async () => {
    const report = await draft();
    const early = await act('CEO', 'POST', `${REPORTS}/${report.id}/reject`, { reason: 'Неполные данные' });
    expect([early.status, early.body.code]).toEqual([409, 'STATE_CONFLICT']);
    await act('Engineer', 'POST', `${REPORTS}/${report.id}/submit`);
    for (const reason of ['', 'abcd', '    abcd    ', 'x'.repeat(501)]) {
      const response = await act('CEO', 'POST', `${REPORTS}/${report.id}/reject`, { reason });
      expect([response.status, response.body.errors?.[0]?.field], JSON.stringify(reason)).toEqual([422, 'reason']);
    }
    for (const role of ['Foreman', 'Admin', 'Mechanic', 'Supply', 'OtibSpecialist'] as const) {
      expect((await act(role, 'POST', `${REPORTS}/${report.id}/reject`, { reason: 'Неполные данные' })).status, role).toBe(403);
    }
    const rejected = await act('Engineer', 'POST', `${REPORTS}/${report.id}/reject`, { reason: 'abcde' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      rejectReason: 'abcde',
      rejectedBy: actors.userId('Engineer'),
      rejectedAt: expect.any(String),
      approveSagaId: null,
    });
    const twice = await act('CEO', 'POST', `${REPORTS}/${report.id}/reject`, { reason: 'x'.repeat(500) });
    expect([twice.status, twice.body.code]).toEqual([409, 'STATE_CONFLICT']);

    const audit = await act('CEO', 'GET', `/api/v1/core/audit?entityType=ShiftReport&entityId=${report.id}`);
    const change = audit.body.items.find((item: { changes: Record<string, unknown> }) => 'rejectReason' in item.changes);
    expect(change).toMatchObject({
      actorId: actors.userId('Engineer'),
      operation: 'prdRejectShiftReport',
      changes: { status: { before: 'submitted', after: 'rejected' }, rejectReason: { before: null, after: 'abcde' } },
    });
    const [event] = (await actors.events('prd.shift-report.rejected')).filter((row) => row.payload.shiftReportId === report.id);
    expect(event!.payload).toMatchObject({ reason: 'abcde', actorId: actors.userId('Engineer'), productionObjectId: actors.north });

    const shift = { productionObjectId: actors.north, shiftDate: report.shiftDate, shiftType: report.shiftType };
    const again = await act('Engineer', 'POST', REPORTS, shift);
    expect(again.status).toBe(201);
    expect((await act('Engineer', 'POST', REPORTS, shift)).status).toBe(409);
  });

  it('approves only a submitted report (Engineer, CEO) through its saga, and reverses only an approved one (CEO)', async () => {
    const report = await draft();
    const early = await act('CEO', 'POST', `${REPORTS}/${report.id}/approve`);
    expect([early.status, early.body.code]).toEqual([409, 'STATE_CONFLICT']);
    const notYet = await act('CEO', 'POST', `${REPORTS}/${report.id}/reverse`, { reason: 'Ещё черновик' });
    expect([notYet.status, notYet.body.code]).toEqual([409, 'STATE_CONFLICT']);
    await act('Foreman', 'POST', `${REPORTS}/${report.id}/submit`);
    for (const role of ['Foreman', 'Admin', 'Mechanic', 'Supply', 'OtibSpecialist'] as const) {
      expect((await act(role, 'POST', `${REPORTS}/${report.id}/approve`)).status, role).toBe(403);
    }
    const started = await act('Engineer', 'POST', `${REPORTS}/${report.id}/approve`);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ shiftReportId: report.id, sagaId: expect.any(String), status: 'enqueued' });
    expect((await settleSaga(actors, started.body.sagaId)).status).toBe('completed');
    const approved = (await act('CEO', 'GET', `${REPORTS}/${report.id}`)).body;
    expect(approved).toMatchObject({
      status: 'approved',
      approvedBy: actors.userId('Engineer'),
      approvedAt: expect.any(String),
      approveSagaId: started.body.sagaId,
    });
    for (const [verb, body] of [
      ['approve', undefined],
      ['reject', { reason: 'Поздно отклонять' }],
      ['submit', undefined],
    ] as const) {
      const response = await act('Engineer', 'POST', `${REPORTS}/${report.id}/${verb}`, body);
      expect([response.status, response.body.code], verb).toEqual([409, 'STATE_CONFLICT']);
    }
    for (const reason of ['короткая', 'x'.repeat(501)]) {
      expect((await act('CEO', 'POST', `${REPORTS}/${report.id}/reverse`, { reason })).status).toBe(422);
    }
    const reversed = await act('CEO', 'POST', `${REPORTS}/${report.id}/reverse`, { reason: 'x'.repeat(10) });
    expect(reversed.status).toBe(202);
    expect((await settleSaga(actors, reversed.body.rejectSagaId)).status).toBe('completed');
    expect((await act('CEO', 'GET', `${REPORTS}/${report.id}`)).body).toMatchObject({ status: 'rejected', rejectReason: 'x'.repeat(10) });
    const twice = await act('CEO', 'POST', `${REPORTS}/${report.id}/reverse`, { reason: 'x'.repeat(10) });
    expect([twice.status, twice.body.code]).toEqual([409, 'STATE_CONFLICT']);
  });

  it('accepts entries only in draft: submitted, approved and rejected reports refuse every kind (409), the database too', async () => {
    const { reportId } = await seedApprovableReport(actors, fixtures, { submit: false });
    const [usageId] = (await act('Engineer', 'GET', `${REPORTS}/${reportId}/children`)).body.assetUsages.map((row: Body) => row.id);
    const bodies: Record<string, Body> = {
      personnel: { personnelId: fixtures.personnelIds[0], positionId: fixtures.positionId, hoursWorked: 1, downtimeHours: 0 },
      'asset-usages': { assetId: fixtures.assetIds[0], hoursWorked: 1, meterReadingStart: 0, meterReadingEnd: 1 },
      drilling: { assetUsageId: usageId, holesDrilled: 1, depthMeters: 1 },
      blasting: { blocksBlasted: 0, explosiveType: 'Аммонит', explosiveKg: 0 },
      fuel: { assetUsageId: usageId, tankId: fixtures.tankId, fuelType: 'diesel', litersIssued: 1, litersConsumed: 1 },
      downtime: { reasonCode: 'weather', startedAt: '2026-01-01T10:00:00Z', endedAt: '2026-01-01T11:00:00Z' },
      materials: { tmcItemId: fixtures.itemId, quantity: 1, unit: 'кг', warehouseId: fixtures.warehouseId },
    };
    const refusedAll = async (state: string) => {
      for (const [kind, body] of Object.entries(bodies)) {
        const response = await add(reportId, kind, body);
        expect([response.status, response.body.code], `${kind} when ${state}`).toEqual([409, 'STATE_CONFLICT']);
      }
    };
    const before = (await act('Engineer', 'GET', `${REPORTS}/${reportId}/children`)).body;
    await act('Engineer', 'POST', `${REPORTS}/${reportId}/submit`);
    await refusedAll('submitted');
    expect((await settleSaga(actors, await approveReport(actors, reportId))).status).toBe('completed');
    await refusedAll('approved');
    expect((await act('Engineer', 'GET', `${REPORTS}/${reportId}/children`)).body).toEqual(before);
    // Immutable whatever writes them: the database refuses a change of an approved report's entries.
    await expect(
      actors.query(`update operations.shift_fuel_entry set liters_issued = 1 where shift_report_id = $1`, [reportId]),
    ).rejects.toThrow(/only while the report is a draft/);
    await expect(actors.query(`delete from operations.shift_personnel_entry where shift_report_id = $1`, [reportId])).rejects.toThrow(
      /only while the report is a draft/,
    );
  });
});

describe('entries', () => {
  it('personnel: hours 0 to 24, an employee and a position that exist; an employee’s entries add up to at most 24 hours', async () => {
    const report = await draft();
    const base = { personnelId: fixtures.personnelIds[0], positionId: fixtures.positionId, hoursWorked: 0, downtimeHours: 24 };
    const first = await add(report.id, 'personnel', base);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      organizationId: report.organizationId,
      shiftReportId: report.id,
      personnelId: fixtures.personnelIds[0],
      positionId: fixtures.positionId,
      hoursWorked: 0,
      downtimeHours: 24,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await accepted(report.id, 'personnel', base, [{ personnelId: fixtures.personnelIds[1], hoursWorked: 24, downtimeHours: 0.25 }]);
    await refused(report.id, 'personnel', { ...base, personnelId: fixtures.personnelIds[2] }, [
      [{ hoursWorked: -0.01 }, 'hoursWorked'],
      [{ hoursWorked: 24.01 }, 'hoursWorked'],
      [{ hoursWorked: 7.333 }, 'hoursWorked'],
      [{ hoursWorked: '8' }, 'hoursWorked'],
      [{ hoursWorked: undefined }, 'hoursWorked'],
      [{ downtimeHours: -1 }, 'downtimeHours'],
      [{ downtimeHours: 25 }, 'downtimeHours'],
      [{ downtimeHours: undefined }, 'downtimeHours'],
      [{ personnelId: 'somebody' }, 'personnelId'],
      [{ personnelId: randomUUID() }, 'personnelId', 'PRD_REFERENCE_NOT_FOUND'],
      [{ positionId: randomUUID() }, 'positionId', 'PRD_REFERENCE_NOT_FOUND'],
    ]);
    const second = await add(report.id, 'personnel', { ...base, hoursWorked: 24, downtimeHours: 0 });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    await refused(report.id, 'personnel', base, [[{ hoursWorked: 0.01 }, 'hoursWorked', 'VALIDATION_FAILED']]);
  });

  it('asset usages: hours 0 to 24, meters at least 0 and not running backwards, an asset in service; a machine’s usages add up to at most the shift', async () => {
    const report = await draft();
    const base = {
      assetId: fixtures.assetIds[0],
      operatorPersonnelId: fixtures.personnelIds[0],
      hoursWorked: 12,
      meterReadingStart: 0,
      meterReadingEnd: 0,
    };
    const first = await add(report.id, 'asset-usages', base);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      assetId: fixtures.assetIds[0],
      operatorPersonnelId: fixtures.personnelIds[0],
      hoursWorked: 12,
      meterReadingStart: 0,
      meterReadingEnd: 0,
    });
    await accepted(report.id, 'asset-usages', base, [
      { assetId: fixtures.assetIds[1], operatorPersonnelId: null, hoursWorked: 0, meterReadingStart: 1500.25, meterReadingEnd: 1510.5 },
    ]);
    await refused(report.id, 'asset-usages', { ...base, assetId: fixtures.assetIds[2] }, [
      [{ hoursWorked: -1 }, 'hoursWorked'],
      [{ hoursWorked: 24.5 }, 'hoursWorked'],
      [{ meterReadingStart: -0.01 }, 'meterReadingStart'],
      [{ meterReadingStart: undefined }, 'meterReadingStart'],
      [{ meterReadingEnd: undefined }, 'meterReadingEnd'],
      [{ meterReadingStart: 100, meterReadingEnd: 99.99 }, 'meterReadingEnd', 'VALIDATION_FAILED'],
      [{ assetId: randomUUID() }, 'assetId', 'PRD_REFERENCE_NOT_FOUND'],
      [{ operatorPersonnelId: randomUUID() }, 'operatorPersonnelId', 'PRD_REFERENCE_NOT_FOUND'],
    ]);
    await accepted(report.id, 'asset-usages', base, [{ hoursWorked: 0, meterReadingStart: 12, meterReadingEnd: 12 }]);
    await refused(report.id, 'asset-usages', base, [[{ hoursWorked: 0.25 }, 'hoursWorked', 'VALIDATION_FAILED']]);
  });

  it('drilling: holes an integer from 1 to 2147483647, depth above 0, wear 0 to 100 or null, a usage of this report', async () => {
    const report = await draft();
    const assetUsageId = await usage(report.id);
    const base = { assetUsageId, holesDrilled: 1, depthMeters: 0.01, drillBitWearPercent: null };
    await accepted(report.id, 'drilling', base, [
      {},
      { holesDrilled: 2147483647, drillBitWearPercent: 100 },
      { drillBitWearPercent: 0, depthMeters: 250.75 },
      { drillBitWearPercent: undefined },
    ]);
    const elsewhere = await usage((await draft()).id);
    await refused(report.id, 'drilling', base, [
      [{ holesDrilled: 0 }, 'holesDrilled'],
      [{ holesDrilled: 2147483648 }, 'holesDrilled'],
      [{ holesDrilled: 1.5 }, 'holesDrilled'],
      [{ depthMeters: 0 }, 'depthMeters'],
      [{ depthMeters: -3 }, 'depthMeters'],
      [{ drillBitWearPercent: 100.01 }, 'drillBitWearPercent'],
      [{ drillBitWearPercent: -0.5 }, 'drillBitWearPercent'],
      [{ assetUsageId: undefined }, 'assetUsageId'],
      [{ assetUsageId: randomUUID() }, 'assetUsageId', 'PRD_REFERENCE_NOT_FOUND'],
      [{ assetUsageId: elsewhere }, 'assetUsageId', 'PRD_REFERENCE_NOT_FOUND'],
    ]);
  });

  it('blasting: blocks an integer from 0 to 2147483647, explosive type 1 to 80, kg at least 0, permit a UUID or null', async () => {
    const report = await draft();
    const base = { blocksBlasted: 0, explosiveType: 'x', explosiveKg: 0 };
    await accepted(report.id, 'blasting', base, [
      {},
      { blocksBlasted: 2147483647, explosiveType: 'э'.repeat(80), permitId: randomUUID() },
      { permitId: null, explosiveKg: 1250.125 },
    ]);
    await refused(report.id, 'blasting', base, [
      [{ blocksBlasted: -1 }, 'blocksBlasted'],
      [{ blocksBlasted: 2147483648 }, 'blocksBlasted'],
      [{ blocksBlasted: 0.5 }, 'blocksBlasted'],
      [{ explosiveType: '' }, 'explosiveType'],
      [{ explosiveType: '   ' }, 'explosiveType'],
      [{ explosiveType: 'э'.repeat(81) }, 'explosiveType'],
      [{ explosiveKg: -0.001 }, 'explosiveKg'],
      [{ explosiveKg: undefined }, 'explosiveKg'],
      [{ permitId: 'P-1' }, 'permitId'],
    ]);
  });

  it('fuel: litres at least 0, consumed not above issued, a fuel type, a usage of this report and an active tank', async () => {
    const report = await draft();
    const assetUsageId = await usage(report.id);
    const base = { assetUsageId, tankId: fixtures.tankId, fuelType: 'diesel', litersIssued: 0, litersConsumed: 0 };
    await accepted(report.id, 'fuel', base, [
      {},
      { fuelType: 'gasoline', litersIssued: 50.5, litersConsumed: 50.5 },
      { fuelType: 'lubricant', litersIssued: 10, litersConsumed: 2.125 },
    ]);
    await refused(report.id, 'fuel', base, [
      [{ litersIssued: 10, litersConsumed: 10.001 }, 'litersConsumed', 'VALIDATION_FAILED'],
      [{ litersIssued: -1 }, 'litersIssued'],
      [{ litersConsumed: -1 }, 'litersConsumed'],
      [{ litersIssued: 1.0001 }, 'litersIssued'],
      [{ fuelType: 'kerosene' }, 'fuelType'],
      [{ fuelType: undefined }, 'fuelType'],
      [{ tankId: undefined }, 'tankId'],
      [{ tankId: randomUUID() }, 'tankId', 'PRD_REFERENCE_NOT_FOUND'],
      [{ assetUsageId: undefined }, 'assetUsageId'],
      [{ assetUsageId: randomUUID() }, 'assetUsageId', 'PRD_REFERENCE_NOT_FOUND'],
    ]);
  });

  it('downtime: a reason code, endedAt after startedAt, a usage of this report or null', async () => {
    const report = await draft();
    const assetUsageId = await usage(report.id);
    const base = { assetUsageId, reasonCode: 'breakdown', startedAt: '2026-03-01T08:00:00Z', endedAt: '2026-03-01T08:00:01Z' };
    const first = await add(report.id, 'downtime', { ...base, description: 'Обрыв троса' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ assetUsageId, reasonCode: 'breakdown', description: 'Обрыв троса' });
    expect(Date.parse(first.body.endedAt) - Date.parse(first.body.startedAt)).toBe(1000);
    await accepted(
      report.id,
      'downtime',
      base,
      ['maintenance', 'no_fuel', 'weather', 'other'].map((reasonCode) => ({
        reasonCode,
        assetUsageId: null,
        startedAt: '2026-03-01T10:00:00+06:00',
        endedAt: '2026-03-01T05:00:00Z',
        description: null,
      })),
    );
    await refused(report.id, 'downtime', base, [
      [{ endedAt: base.startedAt }, 'endedAt', 'VALIDATION_FAILED'],
      [{ endedAt: '2026-03-01T07:59:59Z' }, 'endedAt', 'VALIDATION_FAILED'],
      [{ startedAt: '2026-03-01' }, 'startedAt'],
      [{ endedAt: undefined }, 'endedAt'],
      [{ reasonCode: 'lunch' }, 'reasonCode'],
      [{ description: 'x'.repeat(2001) }, 'description'],
      [{ assetUsageId: randomUUID() }, 'assetUsageId', 'PRD_REFERENCE_NOT_FOUND'],
    ]);
  });

  it('materials: quantity above 0, a unit of 1 to 20 that is the item’s, an active item, a warehouse named or the object’s only one', async () => {
    const report = await draft();
    const base = { tmcItemId: fixtures.itemId, quantity: 0.001, unit: 'кг', warehouseId: fixtures.warehouseId };
    await accepted(report.id, 'materials', base, [{}, { assetUsageId: await usage(report.id), quantity: 12.5 }, { assetUsageId: null }]);
    await refused(report.id, 'materials', base, [
      [{ quantity: 0 }, 'quantity'],
      [{ quantity: -2 }, 'quantity'],
      [{ quantity: 0.0001 }, 'quantity'],
      [{ unit: '' }, 'unit'],
      [{ unit: 'к'.repeat(21) }, 'unit'],
      [{ unit: 'шт' }, 'unit', 'PRD_UNIT_MISMATCH'],
      [{ tmcItemId: randomUUID() }, 'tmcItemId', 'PRD_REFERENCE_NOT_FOUND'],
      [{ warehouseId: randomUUID() }, 'warehouseId', 'PRD_REFERENCE_NOT_FOUND'],
      [{ assetUsageId: randomUUID() }, 'assetUsageId', 'PRD_REFERENCE_NOT_FOUND'],
    ]);
    // NORTH has several warehouses by now (each fixture set adds one): the warehouse must be named.
    await actors.act('Supply', 'POST', '/api/v1/scm/warehouses', {
      objectId: actors.north,
      code: `W-${randomUUID().slice(0, 8)}`,
      name: 'Второй склад',
    });
    const { warehouseId: _named, ...unnamed } = base;
    const ambiguous = await add(report.id, 'materials', unnamed);
    expect([ambiguous.status, ambiguous.body.code]).toEqual([422, 'PRD_WAREHOUSE_REQUIRED']);
    // SOUTH has one: it is the default.
    const south = await draft('Engineer', actors.south);
    const none = await add(south.id, 'materials', unnamed);
    expect([none.status, none.body.code]).toEqual([422, 'PRD_WAREHOUSE_REQUIRED']);
    const warehouse = await actors.act('Supply', 'POST', '/api/v1/scm/warehouses', {
      objectId: actors.south,
      code: `W-${randomUUID().slice(0, 8)}`,
      name: 'Южный склад',
    });
    const defaulted = await add(south.id, 'materials', unnamed);
    expect([defaulted.status, defaulted.body.warehouseId]).toEqual([201, warehouse.body.id]);
  });

  it('lists every entry in the snapshot by kind, oldest first; a Foreman cannot add to a report of another object', async () => {
    const { reportId } = await seedApprovableReport(actors, fixtures, { submit: false });
    const snapshot = await act('Foreman', 'GET', `${REPORTS}/${reportId}/children`);
    expect(snapshot.status).toBe(200);
    expect(Object.keys(snapshot.body)).toEqual(['personnel', 'assetUsages', 'drilling', 'blasting', 'fuel', 'downtime', 'tmcUsage']);
    expect(snapshot.body.personnel.map((row: Body) => row.personnelId)).toEqual(fixtures.personnelIds);
    expect(snapshot.body.assetUsages.map((row: Body) => row.assetId)).toEqual(fixtures.assetIds);
    expect(snapshot.body.drilling).toHaveLength(3);
    expect(snapshot.body.fuel).toHaveLength(3);
    expect(snapshot.body.blasting).toHaveLength(1);
    expect(snapshot.body.downtime).toHaveLength(1);
    expect(snapshot.body.tmcUsage[0]).toMatchObject({
      tmcItemId: fixtures.itemId,
      quantity: 3.25,
      unit: 'кг',
      warehouseId: fixtures.warehouseId,
    });
    const south = await draft('Engineer', actors.south);
    expect((await act('Foreman', 'GET', `${REPORTS}/${south.id}`)).status).toBe(404);
    expect((await act('Foreman', 'GET', `${REPORTS}/${south.id}/children`)).status).toBe(404);
    const blasted = await add(south.id, 'blasting', { blocksBlasted: 1, explosiveType: 'Гранулит', explosiveKg: 10 }, 'Foreman');
    expect([blasted.status, blasted.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
    for (const role of ['CEO', 'Admin', 'Mechanic', 'Supply'] as const) {
      expect((await add(south.id, 'blasting', { blocksBlasted: 1, explosiveType: 'Гранулит', explosiveKg: 10 }, role)).status, role).toBe(
        403,
      );
    }
  });
});

describe('personnel', () => {
  it('counts operating a machine in a draft report as an open assignment: termination refuses it, force clears the operator', async () => {
    const hired = await act('Admin', 'POST', '/api/v1/hr/personnel', {
      fullName: 'Оператор Временный',
      tabNumber: `OP-${randomUUID().slice(0, 8)}`,
      positionId: fixtures.positionId,
      hiredAt: '2024-01-15',
      objectId: actors.north,
    });
    const report = await draft();
    const added = await add(report.id, 'asset-usages', {
      assetId: fixtures.assetIds[0],
      operatorPersonnelId: hired.body.id,
      hoursWorked: 6,
      meterReadingStart: 1,
      meterReadingEnd: 7,
    });
    expect(added.status).toBe(201);
    const refusedTermination = await act('Admin', 'POST', `/api/v1/hr/personnel/${hired.body.id}/terminate`, { reason: 'Уволен' });
    expect([refusedTermination.status, refusedTermination.body.code]).toEqual([409, 'HR_OPEN_ASSIGNMENTS']);
    expect(refusedTermination.body.detail).toContain(`operator in the draft shift report of ${report.shiftDate}`);
    const forced = await act('Admin', 'POST', `/api/v1/hr/personnel/${hired.body.id}/terminate`, { reason: 'Уволен', force: true });
    expect([forced.status, forced.body.status]).toEqual([200, 'terminated']);
    const [usageRow] = (await act('Engineer', 'GET', `${REPORTS}/${report.id}/children`)).body.assetUsages;
    expect(usageRow).toMatchObject({ id: added.body.id, operatorPersonnelId: null });
    const again = await add(report.id, 'personnel', {
      personnelId: hired.body.id,
      positionId: fixtures.positionId,
      hoursWorked: 1,
      downtimeHours: 0,
    });
    expect([again.status, again.body.code]).toEqual([422, 'PRD_REFERENCE_NOT_FOUND']);
  });
});

describe('the list', () => {
  it('pages newest first by createdAt with limit 1 to 100 (default 20) and filters by status, object and shift dates', async () => {
    const made: string[] = [];
    for (let index = 0; index < 23; index += 1) made.push((await draft('Engineer', index % 2 === 0 ? actors.north : actors.south)).id);
    const first = await act('CEO', 'GET', REPORTS);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.items.slice(0, 20).map((row: Body) => row.id)).toEqual([...made].reverse().slice(0, 20));
    const created = first.body.items.map((row: Body) => Date.parse(String(row.createdAt)));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await act('CEO', 'GET', `${REPORTS}?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((row: Body) => row.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 23)).toEqual([...made].reverse());
    expect((await act('CEO', 'GET', `${REPORTS}?limit=100`)).body.items.length).toBeLessThanOrEqual(100);
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=x',
      'status=open',
      'productionObjectId=x',
      'shiftDateFrom=2026-13-01',
      'cursor=abc',
    ]) {
      expect((await act('CEO', 'GET', `${REPORTS}?${query}`)).status, query).toBe(422);
    }

    const southOnly = (await act('CEO', 'GET', `${REPORTS}?productionObjectId=${actors.south}&limit=100`)).body.items as Body[];
    expect(southOnly.length).toBeGreaterThan(10);
    expect(southOnly.every((row) => row.productionObjectId === actors.south)).toBe(true);
    const foreman = (await act('Foreman', 'GET', `${REPORTS}?limit=100`)).body.items as Body[];
    expect(foreman.every((row) => row.productionObjectId === actors.north)).toBe(true);
    expect((await act('Foreman', 'GET', `${REPORTS}?productionObjectId=${actors.south}`)).body.items).toEqual([]);
    const submitted = (await act('Engineer', 'GET', `${REPORTS}?status=submitted&limit=100`)).body.items as Body[];
    expect(submitted.length).toBeGreaterThan(0);
    expect(submitted.every((row) => row.status === 'submitted')).toBe(true);

    const one = (await act('CEO', 'GET', `${REPORTS}/${made[5]}`)).body;
    const dated = (await act('CEO', 'GET', `${REPORTS}?shiftDateFrom=${one.shiftDate}&shiftDateTo=${one.shiftDate}&limit=100`)).body
      .items as Body[];
    expect(dated.map((row) => row.id)).toContain(one.id);
    expect(dated.every((row) => row.shiftDate === one.shiftDate)).toBe(true);
    const later = (await act('CEO', 'GET', `${REPORTS}?shiftDateFrom=${one.shiftDate}&limit=100`)).body.items as Body[];
    expect(later.every((row) => String(row.shiftDate) >= String(one.shiftDate))).toBe(true);
    for (const role of ['Admin', 'Mechanic', 'Supply', 'OtibSpecialist'] as const)
      expect((await act(role, 'GET', REPORTS)).status, role).toBe(403);
  });
});

describe('missing and foreign reports', () => {
  it('answers 404 for a report that is missing or of another organization, on every route with its id', async () => {
    const root = await login(actors.stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const organizationId = await createOrganization(actors.stack, root, 'prd-other', 'Other');
    await addMember(actors.stack, root, organizationId, {
      email: 'engineer@prd-other.example.org',
      password: 'other-password',
      name: 'Other Engineer',
      roles: ['Engineer', 'Admin'],
    });
    const engineer = await login(actors.stack, 'engineer@prd-other.example.org', 'other-password');
    const preview = await call(actors.stack, engineer, 'POST', '/api/v1/core/production-objects/import/preview', {
      rows: [{ code: 'PIT', name: 'Pit' }],
    });
    await call(
      actors.stack,
      engineer,
      'POST',
      '/api/v1/core/production-objects/import/commit',
      { batchId: preview.body.batchId },
      idempotencyKey(),
    );
    const [object] = (await call(actors.stack, engineer, 'GET', '/api/v1/core/production-objects')).body;
    const theirs = await call(actors.stack, engineer, 'POST', REPORTS, { productionObjectId: object.id, ...nextShift() }, idempotencyKey());
    expect(theirs.status).toBe(201);

    const routes: Array<[string, string, Body | undefined]> = [
      ['GET', '', undefined],
      ['GET', '/children', undefined],
      ['POST', '/submit', undefined],
      ['POST', '/approve', undefined],
      ['POST', '/reject', { reason: 'Чужой отчёт' }],
      ['POST', '/reverse', { reason: 'Чужой отчёт, отмена' }],
      ['POST', '/blasting', { blocksBlasted: 1, explosiveType: 'Гранулит', explosiveKg: 1 }],
      ['POST', '/personnel', { personnelId: fixtures.personnelIds[0], positionId: fixtures.positionId, hoursWorked: 1, downtimeHours: 0 }],
    ];
    for (const [method, suffix, body] of routes) {
      const role = suffix === '/reverse' ? 'CEO' : 'Engineer';
      const foreign = await act(role, method, `${REPORTS}/${theirs.body.id}${suffix}`, body);
      const missing = await act(role, method, `${REPORTS}/${randomUUID()}${suffix}`, body);
      expect(foreign.status, `${method} ${suffix}`).toBe(404);
      expect({ ...foreign.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
      expect(foreign.body.code).toBe('RECORD_NOT_FOUND');
    }
    expect((await act('CEO', 'GET', `${REPORTS}/not-a-uuid`)).status).toBe(422);
  });
});

describe('GraphQL', () => {
  it('serves reports, their entries and the approval saga as the contracts derive them', async () => {
    const { reportId } = await seedApprovableReport(actors, fixtures);
    const sagaId = await approveReport(actors, reportId);
    await settleSaga(actors, sagaId);
    const token = actors.sessions.get('CEO')!.token;
    const response = await actors.stack.graphql(
      `query ($id: ID!, $sagaId: ID!) {
        prdGetShiftReport(id: $id) { id status approveSagaId }
        prdShiftReportChildren(id: $id) { assetUsages { assetId hoursWorked } fuel { litersIssued litersConsumed fuelType } tmcUsage { quantity unit } }
        prdListShiftReports(status: approved, limit: 1) { items { id } nextCursor }
        coreSagaStatus(sagaId: $sagaId) { type status steps { name status } }
      }`,
      { id: reportId, sagaId },
      { authorization: `Bearer ${token}` },
    );
    expect(response.body.errors).toBeUndefined();
    const data = response.body.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(data.prdGetShiftReport).toEqual({ id: reportId, status: 'approved', approveSagaId: sagaId });
    expect(data.prdShiftReportChildren.fuel[0]).toEqual({ litersIssued: 120.5, litersConsumed: 118.25, fuelType: 'diesel' });
    expect(data.prdShiftReportChildren.tmcUsage).toEqual([{ quantity: 3.25, unit: 'кг' }]);
    expect(data.prdListShiftReports.items).toEqual([{ id: reportId }]);
    expect(data.coreSagaStatus.type).toBe('prd.shift-report.approve');
    expect(data.coreSagaStatus.steps.map((step: { name: string }) => step.name)).toEqual([
      'fuel',
      'materials',
      'machine-hours',
      'coefficients',
      'statistics',
      'timesheet',
    ]);
    const refused = await actors.stack.graphql(
      `mutation ($id: ID!) { prdRejectShiftReport(id: $id, reason: "abc") { id } }`,
      { id: reportId },
      { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});

describe('audit', () => {
  it('has an audit row for every mutation this file made', async () => {
    expect(await actors.unaudited()).toEqual([]);
  });
});
