import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import { OPERATIONS_ENV } from '../support/operations.js';
import { REPORTS } from '../support/prd.js';
import { settleSaga } from '../support/sagas.js';
import { startStack } from '../support/stack.js';

/**
 * The demo organization's working records, made at first start: enough of every module that a
 * shift report can be filled, submitted and approved with nothing created by hand.
 */

let actors: Actors;
beforeAll(async () => {
  // On the embedded database they are made by default; a test database is named by DATABASE_URL.
  actors = await Actors.start({ DEMO_OPERATIONS: 'true', DEMO_OPERATIONS_RECORDS: 'true' });
});
afterAll(async () => {
  await actors?.stop();
});

type Row = Record<string, unknown> & { id: string };
const items = (body: unknown): Row[] => (Array.isArray(body) ? body : (body as { items: Row[] }).items);

async function list(path: string, role: Parameters<Actors['act']>[0] = 'Admin'): Promise<Row[]> {
  const response = await actors.act(role, 'GET', path);
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return items(response.body);
}

/** What the demo organization holds, by module, as counts. */
async function inventory() {
  return {
    assetClasses: (await list('/api/v1/eam/asset-classes', 'Engineer')).map((row) => row.code),
    assets: (await list('/api/v1/eam/assets', 'Engineer')).length,
    tanks: (await list('/api/v1/scm/fuel/tanks')).map((row) => row.code),
    personnel: (await list('/api/v1/hr/personnel')).length,
    brigades: (await list('/api/v1/hr/brigades')).length,
    suppliers: (await list('/api/v1/scm/suppliers', 'Supply')).length,
    warehouses: (await list('/api/v1/scm/warehouses', 'Supply')).map((row) => row.code),
    reports: (await list(REPORTS, 'Engineer')).length,
  };
}

describe('demo data at first start', () => {
  it('holds assets, a fuel tank with a balance, personnel, a brigade, a supplier, stock and a draft shift report with entries', async () => {
    expect(await inventory()).toEqual({
      assetClasses: ['DRILL'],
      assets: 2,
      tanks: ['ДТ-1'],
      personnel: 4,
      brigades: 1,
      suppliers: 1,
      warehouses: ['СК-1'],
      reports: 1,
    });
    const [tank] = await list('/api/v1/scm/fuel/tanks');
    expect(tank!.currentBalanceLiters).toBe(30_000);
    const [warehouse] = await list('/api/v1/scm/warehouses', 'Supply');
    const stock = await list(`/api/v1/scm/tmc/balances?warehouseId=${warehouse!.id}`, 'Supply');
    expect(stock.map((row) => row.quantity)).toEqual([500]);

    const [draft] = await list(REPORTS, 'Foreman');
    expect(draft).toMatchObject({ status: 'draft', productionObjectId: actors.north });
    const entries = (await actors.act('Foreman', 'GET', `${REPORTS}/${draft!.id}/children`)).body as Record<string, unknown[]>;
    expect(Object.fromEntries(Object.entries(entries).map(([kind, rows]) => [kind, rows.length]))).toEqual({
      assetUsages: 2,
      drilling: 2,
      fuel: 2,
      downtime: 1,
      blasting: 1,
      tmcUsage: 1,
      personnel: 4,
    });
  });

  it('the Foreman submits the demo report and the CEO approves it: the approve saga completes and takes the fuel out of the tank', async () => {
    const [draft] = await list(REPORTS, 'Foreman');
    const submitted = await actors.act('Foreman', 'POST', `${REPORTS}/${draft!.id}/submit`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const approved = await actors.act('CEO', 'POST', `${REPORTS}/${draft!.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(202);
    const saga = await settleSaga(actors, approved.body.sagaId);
    expect(saga.status).toBe('completed');
    expect((await actors.act('CEO', 'GET', `${REPORTS}/${draft!.id}`)).body.status).toBe('approved');
    const [tank] = await list('/api/v1/scm/fuel/tanks');
    expect(tank!.currentBalanceLiters).toBe(30_000 - 2 * 120.5);
  });

  it('a restart on the same database adds nothing and leaves the demo records as they are', async () => {
    const before = await inventory();
    const again = await startStack({
      ...OPERATIONS_ENV,
      DEMO_OPERATIONS: 'true',
      DEMO_OPERATIONS_RECORDS: 'true',
      DATABASE_URL: actors.stack.databaseUrl,
    });
    await again.stop();
    expect(await inventory()).toEqual(before);
  });
});
