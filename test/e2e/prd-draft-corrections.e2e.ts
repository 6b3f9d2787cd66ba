import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { Actors } from '../support/actors.js';
import { approveReport, nextShift, prdFixtures, readBalances, REPORTS, type PrdFixtures } from '../support/prd.js';
import { settleSaga } from '../support/sagas.js';

/**
 * Correcting a draft shift report over REST: every kind of entry corrected (PATCH, the entry as it
 * becomes checked like an addition) and deleted while the report is a draft and refused after;
 * an asset usage other entries name is not deleted; a machine in several stints and an employee
 * in several entries, bounded by their sums; a draft deleted by its author or an Engineer; and an
 * approval that applies the sums of several stints and entries.
 */

let actors: Actors;
let fixtures: PrdFixtures;

type Body = Record<string, unknown>;
const act = (role: OperationsRole, method: string, path: string, body?: unknown) => actors.act(role, method, path, body);

async function draft(role: OperationsRole = 'Engineer'): Promise<string> {
  const created = await act(role, 'POST', REPORTS, { productionObjectId: actors.north, ...nextShift() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function add(reportId: string, kind: string, body: Body): Promise<Body & { id: string }> {
  const added = await act('Engineer', 'POST', `${REPORTS}/${reportId}/${kind}`, body);
  expect(added.status, `${kind}: ${JSON.stringify(added.body)}`).toBe(201);
  return added.body;
}

const patch = (reportId: string, kind: string, entryId: string, body: Body, role: OperationsRole = 'Engineer') =>
  act(role, 'PATCH', `${REPORTS}/${reportId}/${kind}/${entryId}`, body);
const remove = (reportId: string, kind: string, entryId: string, role: OperationsRole = 'Engineer') =>
  act(role, 'DELETE', `${REPORTS}/${reportId}/${kind}/${entryId}`);
/** The fields a 422 names. */
const fields = (body: Body) => (body.errors as Array<{ field: string }>).map((error) => error.field);
const children = async (reportId: string) => (await act('Engineer', 'GET', `${REPORTS}/${reportId}/children`)).body;

/** A draft with one entry of every kind; returns the report and each entry's id by path segment. */
async function filledDraft(): Promise<{ reportId: string; ids: Record<string, string> }> {
  const reportId = await draft();
  const usage = await add(reportId, 'asset-usages', {
    assetId: fixtures.assetIds[0],
    hoursWorked: 6,
    meterReadingStart: 100,
    meterReadingEnd: 106,
  });
  const ids: Record<string, string> = { 'asset-usages': usage.id };
  const bodies: Record<string, Body> = {
    personnel: { personnelId: fixtures.personnelIds[0], positionId: fixtures.positionId, hoursWorked: 8, downtimeHours: 0 },
    drilling: { assetUsageId: usage.id, holesDrilled: 4, depthMeters: 40 },
    blasting: { blocksBlasted: 1, explosiveType: 'Аммонит', explosiveKg: 10 },
    fuel: { assetUsageId: usage.id, tankId: fixtures.tankId, fuelType: 'diesel', litersIssued: 50, litersConsumed: 40 },
    downtime: { assetUsageId: usage.id, reasonCode: 'weather', startedAt: '2026-01-01T10:00:00.000Z', endedAt: '2026-01-01T11:00:00.000Z' },
    materials: { tmcItemId: fixtures.itemId, quantity: 2, unit: 'кг', warehouseId: fixtures.warehouseId },
  };
  for (const [kind, body] of Object.entries(bodies)) ids[kind] = (await add(reportId, kind, body)).id;
  return { reportId, ids };
}

/** The snapshot's list for each path segment. */
const SNAPSHOT: Record<string, string> = {
  personnel: 'personnel',
  'asset-usages': 'assetUsages',
  drilling: 'drilling',
  blasting: 'blasting',
  fuel: 'fuel',
  downtime: 'downtime',
  materials: 'tmcUsage',
};

beforeAll(async () => {
  actors = await Actors.start();
  fixtures = await prdFixtures(actors, { objectId: actors.north, assets: 2, personnel: 2 });
}, 120_000);
afterAll(async () => {
  await actors?.stop();
});

describe('correcting entries of a draft', () => {
  it('changes only the fields named on every kind, and the snapshot shows the corrected entry', async () => {
    const { reportId, ids } = await filledDraft();
    const corrections: Record<string, Body> = {
      personnel: { hoursWorked: 9.5 },
      'asset-usages': { meterReadingEnd: 107.5, operatorPersonnelId: fixtures.personnelIds[1] },
      drilling: { holesDrilled: 5, drillBitWearPercent: 3.5 },
      blasting: { explosiveType: 'Игданит' },
      fuel: { litersConsumed: 50 },
      downtime: { reasonCode: 'breakdown', description: 'Замена шарошки' },
      materials: { quantity: 2.5 },
    };
    const before = await children(reportId);
    for (const [kind, body] of Object.entries(corrections)) {
      const corrected = await patch(reportId, kind, ids[kind]!, body);
      expect(corrected.status, `${kind}: ${JSON.stringify(corrected.body)}`).toBe(200);
      const original = (before[SNAPSHOT[kind]!] as Body[]).find((entry) => entry.id === ids[kind])!;
      const { updatedAt: _after, ...rest } = corrected.body;
      const { updatedAt: _before, ...was } = original;
      expect(rest, kind).toEqual({ ...was, ...body });
    }
    const after = await children(reportId);
    for (const [kind, body] of Object.entries(corrections)) {
      expect(
        (after[SNAPSHOT[kind]!] as Body[]).find((entry) => entry.id === ids[kind]),
        kind,
      ).toMatchObject(body);
    }
  });

  it('checks the entry as it becomes with the rules of an addition (422), and answers 404 for an entry not of the report', async () => {
    const { reportId, ids } = await filledDraft();
    const other = await filledDraft();
    const refusals: Array<[string, Body, string]> = [
      ['personnel', { hoursWorked: 24.5 }, 'hoursWorked'],
      ['personnel', { positionId: randomUUID() }, 'positionId'],
      ['asset-usages', { meterReadingEnd: 99 }, 'meterReadingEnd'],
      ['asset-usages', { hoursWorked: 12.25 }, 'hoursWorked'],
      ['drilling', { assetUsageId: other.ids['asset-usages'] }, 'assetUsageId'],
      ['drilling', { holesDrilled: 0 }, 'holesDrilled'],
      ['blasting', { explosiveType: '' }, 'explosiveType'],
      ['fuel', { litersConsumed: 50.001 }, 'litersConsumed'],
      ['fuel', { litersIssued: 39 }, 'litersConsumed'],
      ['downtime', { endedAt: '2026-01-01T09:00:00.000Z' }, 'endedAt'],
      ['downtime', { startedAt: '2026-01-01T11:00:00.000Z' }, 'endedAt'],
      ['materials', { unit: 'шт' }, 'unit'],
      ['materials', { quantity: 0 }, 'quantity'],
    ];
    const before = await children(reportId);
    for (const [kind, body, field] of refusals) {
      const response = await patch(reportId, kind, ids[kind]!, body);
      const where = `${kind} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`;
      expect(response.status, where).toBe(422);
      const fields = [response.body.errors?.map((error: { field: string }) => error.field), response.body.param].flat();
      expect(fields, where).toContain(field);
    }
    expect(await children(reportId)).toEqual(before);
    for (const kind of Object.keys(SNAPSHOT)) {
      for (const entryId of [randomUUID(), other.ids[kind]!]) {
        const corrected = await patch(reportId, kind, entryId, {});
        expect([corrected.status, corrected.body.code], `PATCH ${kind}`).toEqual([404, 'RECORD_NOT_FOUND']);
        const deleted = await remove(reportId, kind, entryId);
        expect([deleted.status, deleted.body.code], `DELETE ${kind}`).toEqual([404, 'RECORD_NOT_FOUND']);
      }
    }
  });
});

describe('deleting entries of a draft', () => {
  it('deletes every kind; an asset usage other entries name is refused (409) naming them, and goes once they are gone', async () => {
    const { reportId, ids } = await filledDraft();
    const inUse = await remove(reportId, 'asset-usages', ids['asset-usages']!);
    expect([inUse.status, inUse.body.code]).toEqual([409, 'PRD_ENTRY_IN_USE']);
    expect(inUse.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['downtime', 'drilling', 'fuel']);
    expect(JSON.stringify(inUse.body.errors)).toContain(ids.fuel);
    for (const kind of ['personnel', 'drilling', 'blasting', 'fuel', 'downtime', 'materials', 'asset-usages']) {
      const deleted = await remove(reportId, kind, ids[kind]!);
      expect([deleted.status, deleted.body], kind).toEqual([200, { id: ids[kind], deleted: true }]);
      const again = await remove(reportId, kind, ids[kind]!);
      expect(again.status, `${kind} again`).toBe(404);
    }
    const empty = await children(reportId);
    for (const list of Object.values(SNAPSHOT)) expect(empty[list], list).toEqual([]);
  });
});

describe('only while the report is a draft', () => {
  it('refuses corrections and deletions of a submitted report (409) and callers who may not add entries (403)', async () => {
    const { reportId, ids } = await filledDraft();
    for (const role of ['CEO', 'Supply', 'Admin'] as const) {
      expect((await patch(reportId, 'blasting', ids.blasting!, { blocksBlasted: 2 }, role)).status, role).toBe(403);
      expect((await remove(reportId, 'blasting', ids.blasting!, role)).status, role).toBe(403);
    }
    const byForeman = await patch(reportId, 'blasting', ids.blasting!, { blocksBlasted: 2 }, 'Foreman');
    expect(byForeman.status, JSON.stringify(byForeman.body)).toBe(200);
    expect((await act('Engineer', 'POST', `${REPORTS}/${reportId}/submit`)).status).toBe(200);
    const before = await children(reportId);
    for (const kind of Object.keys(SNAPSHOT)) {
      const corrected = await patch(reportId, kind, ids[kind]!, {});
      expect([corrected.status, corrected.body.code], `PATCH ${kind}`).toEqual([409, 'STATE_CONFLICT']);
      const deleted = await remove(reportId, kind, ids[kind]!);
      expect([deleted.status, deleted.body.code], `DELETE ${kind}`).toEqual([409, 'STATE_CONFLICT']);
    }
    expect(await children(reportId)).toEqual(before);
  });
});

describe('several stints of a machine and entries of an employee', () => {
  it('accepts them while an employee’s hours stay at most 24 and a machine’s at most the shift’s 12, on addition and correction', async () => {
    const reportId = await draft();
    const person = { personnelId: fixtures.personnelIds[0], positionId: fixtures.positionId, downtimeHours: 0 };
    const first = await add(reportId, 'personnel', { ...person, hoursWorked: 12 });
    await add(reportId, 'personnel', { ...person, hoursWorked: 12 });
    const over = await act('Engineer', 'POST', `${REPORTS}/${reportId}/personnel`, { ...person, hoursWorked: 0.25 });
    expect([over.status, over.body.code, fields(over.body)]).toEqual([422, 'VALIDATION_FAILED', ['hoursWorked']]);
    // The corrected entry counts once: 11 + 12 is within the bound, 12.25 + 12 is not.
    expect((await patch(reportId, 'personnel', first.id, { hoursWorked: 11 })).status).toBe(200);
    expect((await patch(reportId, 'personnel', first.id, { hoursWorked: 12.25 })).status).toBe(422);
    // Another employee is bounded apart.
    await add(reportId, 'personnel', { ...person, personnelId: fixtures.personnelIds[1], hoursWorked: 24 });

    const machine = { assetId: fixtures.assetIds[0], meterReadingStart: 0, meterReadingEnd: 0 };
    const stint = await add(reportId, 'asset-usages', { ...machine, hoursWorked: 5 });
    await add(reportId, 'asset-usages', { ...machine, hoursWorked: 7 });
    const busy = await act('Engineer', 'POST', `${REPORTS}/${reportId}/asset-usages`, { ...machine, hoursWorked: 0.25 });
    expect([busy.status, busy.body.code, fields(busy.body)]).toEqual([422, 'VALIDATION_FAILED', ['hoursWorked']]);
    expect((await patch(reportId, 'asset-usages', stint.id, { hoursWorked: 5.25 })).status).toBe(422);
    expect((await patch(reportId, 'asset-usages', stint.id, { hoursWorked: 4.75 })).status).toBe(200);
    // Moving a stint to another machine counts it there.
    expect((await patch(reportId, 'asset-usages', stint.id, { assetId: fixtures.assetIds[1] })).status).toBe(200);
    await add(reportId, 'asset-usages', { ...machine, hoursWorked: 5 });
    const snapshot = await children(reportId);
    expect(snapshot.personnel).toHaveLength(3);
    expect(snapshot.assetUsages).toHaveLength(3);
  });
});

describe('deleting a draft report', () => {
  it('lets its author or an Engineer delete a draft and its entries; another Foreman 403, a submitted report 409; the shift is free again', async () => {
    const { reportId } = await filledDraft();
    const byForeman = await act('Foreman', 'DELETE', `${REPORTS}/${reportId}`);
    expect([byForeman.status, byForeman.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await act('CEO', 'DELETE', `${REPORTS}/${reportId}`)).status).toBe(403);
    const shift = (await act('Engineer', 'GET', `${REPORTS}/${reportId}`)).body;
    const deleted = await act('Engineer', 'DELETE', `${REPORTS}/${reportId}`);
    expect([deleted.status, deleted.body]).toEqual([200, { id: reportId, deleted: true }]);
    expect((await act('Engineer', 'GET', `${REPORTS}/${reportId}`)).status).toBe(404);
    expect(await actors.query(`select 1 from operations.shift_fuel_entry where shift_report_id = $1`, [reportId])).toEqual([]);
    const again = await act('Engineer', 'POST', REPORTS, {
      productionObjectId: shift.productionObjectId,
      shiftDate: shift.shiftDate,
      shiftType: shift.shiftType,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);

    const own = await draft('Foreman');
    expect((await act('Foreman', 'DELETE', `${REPORTS}/${own}`)).status).toBe(200);
    const submitted = await draft();
    expect((await act('Engineer', 'POST', `${REPORTS}/${submitted}/submit`)).status).toBe(200);
    const refused = await act('Engineer', 'DELETE', `${REPORTS}/${submitted}`);
    expect([refused.status, refused.body.code]).toEqual([409, 'STATE_CONFLICT']);
    expect((await act('Engineer', 'DELETE', `${REPORTS}/${randomUUID()}`)).status).toBe(404);
  });
});

describe('approving a report with several stints and entries', () => {
  it('applies the sums: fuel and machine hours of both stints, one coefficient row per machine, statistics and the timesheet', async () => {
    const reportId = await draft();
    const [asset] = fixtures.assetIds;
    const morning = await add(reportId, 'asset-usages', { assetId: asset, hoursWorked: 4, meterReadingStart: 5000, meterReadingEnd: 5004 });
    const evening = await add(reportId, 'asset-usages', {
      assetId: asset,
      hoursWorked: 5.5,
      meterReadingStart: 5004,
      meterReadingEnd: 5009.5,
    });
    for (const [usage, liters] of [
      [morning.id, 30],
      [evening.id, 45.5],
    ] as const) {
      await add(reportId, 'fuel', {
        assetUsageId: usage,
        tankId: fixtures.tankId,
        fuelType: 'diesel',
        litersIssued: liters,
        litersConsumed: liters,
      });
    }
    await add(reportId, 'downtime', {
      assetUsageId: morning.id,
      reasonCode: 'breakdown',
      startedAt: '2026-01-01T10:00:00.000Z',
      endedAt: '2026-01-01T11:00:00.000Z',
    });
    await add(reportId, 'downtime', {
      assetUsageId: evening.id,
      reasonCode: 'no_fuel',
      startedAt: '2026-01-01T15:00:00.000Z',
      endedAt: '2026-01-01T15:30:00.000Z',
    });
    const [person] = fixtures.personnelIds;
    await add(reportId, 'personnel', { personnelId: person, positionId: fixtures.positionId, hoursWorked: 6, downtimeHours: 0.5 });
    await add(reportId, 'personnel', { personnelId: person, positionId: fixtures.positionId, hoursWorked: 5.25, downtimeHours: 1 });
    expect((await act('Engineer', 'POST', `${REPORTS}/${reportId}/submit`)).status).toBe(200);
    const shiftDate = (await act('Engineer', 'GET', `${REPORTS}/${reportId}`)).body.shiftDate;
    const statsBefore = (
      await act('CEO', 'GET', `/api/v1/prd/statistics?productionObjectId=${actors.north}&dateFrom=${shiftDate}&dateTo=${shiftDate}`)
    ).body.items;
    expect(statsBefore).toEqual([]);
    const before = await readBalances(actors, fixtures);

    const done = await settleSaga(actors, await approveReport(actors, reportId));
    expect(done.status, JSON.stringify(done)).toBe('completed');

    const after = await readBalances(actors, fixtures);
    expect(after.tankLiters).toBe(before.tankLiters - 75.5);
    expect(after.assets[asset!]!.machineHours).toBe(before.assets[asset!]!.machineHours + 9.5);
    expect(after.assets[asset!]!.meterReading).toBe(5009.5);
    const coefficients = (await act('CEO', 'GET', `/api/v1/prd/asset-coefficients?shiftReportId=${reportId}`)).body.items;
    // One row for the machine: 9.5 h worked, 1.5 h down of 12: availability 10.5/12, utilization 9.5/10.5.
    expect(coefficients).toHaveLength(1);
    expect(coefficients[0]).toMatchObject({
      assetId: asset,
      scheduledHours: 12,
      hoursWorked: 9.5,
      downtimeHours: 1.5,
      availability: 0.875,
      utilization: 0.9048,
    });
    const [day] = (
      await act('CEO', 'GET', `/api/v1/prd/statistics?productionObjectId=${actors.north}&dateFrom=${shiftDate}&dateTo=${shiftDate}`)
    ).body.items;
    expect(day).toMatchObject({
      reports: 1,
      fuelIssuedLiters: 75.5,
      machineHours: 9.5,
      downtimeHours: 1.5,
      personnelHours: 11.25,
      personnelDowntimeHours: 1.5,
    });
    const sheet = (await act('CEO', 'GET', `/api/v1/hr/timesheet?sourceId=${reportId}`)).body.items as Array<Body>;
    expect(sheet.every((row) => row.personnelId === person)).toBe(true);
    expect(sheet.reduce((sum, row) => sum + Number(row.hoursWorked), 0)).toBe(11.25);
    expect(sheet.reduce((sum, row) => sum + Number(row.downtimeHours), 0)).toBe(1.5);
  });
});
