import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.js';
import type { Principal } from '../../subgraphs/operations/core/principal.js';
import { enterTenant } from '../../subgraphs/operations/core/tenancy.js';
import { SUBGRAPHS } from '../../subgraphs/index.js';
import { FuelIssueService } from '../../subgraphs/operations/fuel/fuel-issue.service.js';
import { openOrm, type SubgraphOrm } from '../../subgraphs/shared/orm.js';
import { Actors } from '../support/actors.js';

/**
 * Exact fuel balances under concurrency: receipts over REST and issues through the
 * service the shift-report saga calls (`issueFuel`, no route of its own), run at the
 * same time against one tank in the stack's PostgreSQL, as the application role.
 */

let actors: Actors;
let orm: SubgraphOrm;
const issues = new FuelIssueService();
/** A supplier of the organization: a fuel supply names one. */
let supplierId: string;

/** Runs `work` in one tenant transaction of the demo organization, as the Supply user. */
function asSupply<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const principal = {
    userId: actors.userId('Supply'),
    organizationId: actors.sessions.get('Supply')!.organizationId,
    roles: ['Supply'],
    objects: '*',
  } as unknown as Principal;
  return orm.em.fork().transactional(async (tx) => {
    await enterTenant(tx, principal, 'issueFuel', randomUUID());
    return work(tx);
  });
}

const issue = (tankId: string, liters: number) =>
  asSupply((em) => issues.issueFuel(em, tankId, liters, { actorId: actors.userId('Supply') }));
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );

async function newTank(capacityLiters: number, initialBalanceLiters: number, minLevelLiters = 100): Promise<string> {
  const response = await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
    objectId: actors.north,
    code: `B-${randomUUID().slice(0, 8)}`,
    capacityLiters,
    minLevelLiters,
    initialBalanceLiters,
  });
  expect(response.status).toBe(201);
  return response.body.id;
}

const supply = (tankId: string, quantityLiters: number) =>
  actors.act('Supply', 'POST', '/api/v1/scm/fuel/supplies', { tankId, supplierId, quantityLiters });
const balance = async (tankId: string) => (await actors.act('CEO', 'GET', `/api/v1/scm/fuel/tanks/${tankId}`)).body.currentBalanceLiters;
const exactBalance = async (tankId: string) =>
  (
    await actors.query<{ balance: string }>('select current_balance_liters::text as balance from operations.fuel_tank where id = $1', [
      tankId,
    ])
  )[0]!.balance;

beforeAll(async () => {
  actors = await Actors.start();
  const supplier = await actors.act('Supply', 'POST', '/api/v1/scm/suppliers', { bin: '971240001315', legalName: 'Fuel Supplier' });
  expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
  supplierId = supplier.body.id;
  // The operations ORM as the subgraph opens it (its entities), on the stack's database.
  orm = await openOrm(SUBGRAPHS.operations.database, { databaseUrl: actors.stack.databaseUrl, logger: createLogger('silent') });
});
afterAll(async () => {
  await orm?.close();
  await actors?.stop();
});

describe('concurrency', () => {
  it('leaves the exact balance after 20 concurrent supplies and 20 concurrent issues on one tank', async () => {
    const tankId = await newTank(10_000, 5000);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () =>
        outcome(supply(tankId, 123.45).then((response) => (response.status === 201 ? undefined : Promise.reject(response.body)))),
      ),
      ...Array.from({ length: 20 }, () => outcome(issue(tankId, 67.89))),
    ]);
    expect(results.every((result) => result === 'ok')).toBe(true);
    expect(await exactBalance(tankId)).toBe('6111.20');
    expect(await balance(tankId)).toBe(6111.2);
    // Every entry saw its own balance: the forty changes applied one after the other.
    const after = await actors.query<{ balance: string }>(
      `select balance_after_liters::text as balance from operations.fuel_supply where tank_id = $1
       union all select balance_after_liters::text from operations.fuel_issue where tank_id = $1`,
      [tankId],
    );
    expect(new Set(after.map((row) => row.balance)).size).toBe(40);
  });

  it('refuses what would overflow or empty the tank when 20 supplies and 20 issues race, keeping the balance exact and within bounds', async () => {
    const tankId = await newTank(1000, 500);
    const supplies = Array.from({ length: 20 }, () => supply(tankId, 60.5));
    const issued = Array.from({ length: 20 }, () => outcome(issue(tankId, 70.25)));
    const [received, taken] = await Promise.all([Promise.all(supplies), Promise.all(issued)]);
    const okSupplies = received.filter((response) => response.status === 201).length;
    const okIssues = taken.filter((result) => result === 'ok').length;
    expect(
      received.filter((response) => response.status !== 201).every((response) => response.body.code === 'FUEL_TANK_CAPACITY_EXCEEDED'),
    ).toBe(true);
    expect(taken.filter((result) => result !== 'ok').every((result) => result === 'FUEL_BALANCE_INSUFFICIENT')).toBe(true);
    const expected = (50_000 + 6050 * okSupplies - 7025 * okIssues) / 100;
    expect(await balance(tankId)).toBe(expected);
    expect(expected).toBeGreaterThanOrEqual(0);
    expect(expected).toBeLessThanOrEqual(1000);
    expect(okSupplies + okIssues).toBeGreaterThan(0);
  });
});

describe('issues', () => {
  it('never issues below zero (422 FUEL_BALANCE_INSUFFICIENT) and reverses an issue once as a counter-entry', async () => {
    const tankId = await newTank(1000, 300, 0);
    await expect(issue(tankId, 300.01)).rejects.toMatchObject({ code: 'FUEL_BALANCE_INSUFFICIENT', status: 422 });
    const issued = await issue(tankId, 120.5);
    expect(issued).toMatchObject({ tankId, kind: 'issue', liters: '120.5', balanceAfterLiters: '179.5' });
    const reversal = await asSupply((em) => issues.reverseIssue(em, issued.id, { actorId: null, reason: 'Отчёт смены отменён' }));
    expect(reversal).toMatchObject({ kind: 'reversal', reversalOfId: issued.id, liters: '120.5', balanceAfterLiters: '300.0' });
    await expect(asSupply((em) => issues.reverseIssue(em, issued.id, { actorId: null, reason: 'again' }))).rejects.toMatchObject({
      code: 'FUEL_SUPPLY_ALREADY_REVERSED',
    });
    await expect(issue(randomUUID(), 1)).rejects.toMatchObject({ code: 'RECORD_NOT_FOUND' });
    expect(await exactBalance(tankId)).toBe('300.0');
  });

  it('publishes the low-stock event each time an issue takes the tank from above its minimum to it', async () => {
    const tankId = await newTank(1000, 300, 100);
    const lowStock = async () =>
      (await actors.events('scm.fuel.tank.low-stock'))
        .filter((event) => event.payload.tankId === tankId)
        .map((event) => event.payload.currentBalanceLiters);
    await issue(tankId, 150);
    expect(await lowStock()).toEqual([]);
    await issue(tankId, 60);
    await issue(tankId, 10);
    expect(await lowStock()).toEqual(['90']);
    await supply(tankId, 400);
    await issue(tankId, 380);
    expect(await lowStock()).toEqual(['90', '100']);
  });

  it('never reverses a supply below zero once fuel was issued from it (422 FUEL_BALANCE_INSUFFICIENT)', async () => {
    const tankId = await newTank(1000, 0, 0);
    const receipt = (await supply(tankId, 300)).body;
    await issue(tankId, 250);
    const refused = await actors.act('Supply', 'POST', `/api/v1/scm/fuel/supplies/${receipt.id}/reverse`, {
      reason: 'Ошибка',
      comment: 'Поставка не состоялась',
    });
    expect([refused.status, refused.body.code]).toEqual([422, 'FUEL_BALANCE_INSUFFICIENT']);
    expect(await balance(tankId)).toBe(50);
  });
});

describe('audit', () => {
  it('has an audit row for every REST mutation and every issue this file made', async () => {
    expect(await actors.unaudited()).toEqual([]);
    const unaudited = await actors.query(
      `select i.id from operations.fuel_issue i
       where not exists (select 1 from operations.audit_log a where a.entity_type = 'FuelIssue' and a.entity_id = i.id::text)`,
    );
    expect(unaudited).toEqual([]);
  });
});
