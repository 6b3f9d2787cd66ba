import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, idempotencyKey, type Call, type Session } from '../support/operations.js';
import { PersonnelWorld } from '../support/hr.js';
import type { TestStack } from '../support/stack.js';

/** Personnel over REST: hiring and its bounds, every transition of the seed's table, object scope, the list and GraphQL. */

let stack: TestStack;
let admin: Session;
let engineer: Session;
let foreman: Session;
let north: string;
let south: string;
let driller: string;
let blaster: string;

const today = () => new Date().toISOString().slice(0, 10);
const shift = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
let world: PersonnelWorld;
const hire = (overrides: Record<string, unknown> = {}) => world.hire(overrides);
const hired = (overrides: Record<string, unknown> = {}) => world.hired(overrides);
const act = (session: Session, id: string, verb: string, body: Record<string, unknown> = {}) => world.act(session, id, verb, body);

beforeAll(async () => {
  world = await PersonnelWorld.start();
  ({ stack, admin, engineer, foreman, north, south, driller, blaster } = world);
});
afterAll(async () => {
  await world?.stop();
});

describe('hiring', () => {
  it('hires an employee active with every field; a taken tabNumber is 409 HR_TAB_NUMBER_TAKEN', async () => {
    const response = await hire({ tabNumber: 'TN-1', birthDate: '1985-06-15', phone: '+7 700 000 00 00', email: 'driller@example.org' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      tabNumber: 'TN-1',
      positionId: driller,
      objectId: north,
      status: 'active',
      hiredAt: '2020-03-01',
      birthDate: '1985-06-15',
      phone: '+7 700 000 00 00',
      email: 'driller@example.org',
      terminatedAt: null,
    });
    const card = await call(stack, engineer, 'GET', `/api/v1/hr/personnel/${response.body.id}`);
    expect(card.body).toEqual(response.body);
    const taken = await hire({ tabNumber: 'TN-1' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('HR_TAB_NUMBER_TAKEN');
  });

  it('accepts the edges of every documented bound and refuses one step past each with 422', async () => {
    const edges = await hire({
      fullName: 'x'.repeat(200),
      tabNumber: `E${'x'.repeat(49)}`,
      hiredAt: '1990-01-01',
      birthDate: '1900-01-01',
      phone: '9'.repeat(50),
    });
    expect(edges.status).toBe(201);
    expect((await hire({ hiredAt: today(), birthDate: today() })).status).toBe(201);
    const refused: Array<Record<string, unknown>> = [
      { fullName: '' },
      { fullName: 'x'.repeat(201) },
      { tabNumber: '' },
      { tabNumber: 'x'.repeat(51) },
      { hiredAt: '1989-12-31' },
      { hiredAt: shift(1) },
      { hiredAt: '2020-02-30' },
      { birthDate: '1899-12-31' },
      { birthDate: shift(1) },
      { phone: '9'.repeat(51) },
      { email: 'not-an-address' },
      { positionId: 'not-a-uuid' },
      { positionId: undefined },
    ];
    for (const overrides of refused) {
      const response = await hire(overrides);
      expect(response.status, JSON.stringify(overrides)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses an unknown position or production object with 422 HR_REFERENCE_NOT_FOUND', async () => {
    const position = await hire({ positionId: randomUUID() });
    expect(position.status).toBe(422);
    expect(position.body.code).toBe('HR_REFERENCE_NOT_FOUND');
    const object = await hire({ objectId: randomUUID() });
    expect(object.body.code).toBe('HR_REFERENCE_NOT_FOUND');
  });

  it('replays a hire sent again with its Idempotency-Key instead of hiring twice', async () => {
    const key = idempotencyKey();
    const body = { fullName: 'Once', tabNumber: 'ONCE-1', positionId: driller, hiredAt: '2021-01-01' };
    const first = await call(stack, admin, 'POST', '/api/v1/hr/personnel', body, key);
    const again = await call(stack, admin, 'POST', '/api/v1/hr/personnel', body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('transitions', () => {
  it('moves active → onWatch → active → onVacation → active → terminated exactly as the seed’s table', async () => {
    const { id } = await hired();
    const onWatch = await act(foreman, id, 'arrive-on-watch', { arrivalDate: '2026-01-10' });
    expect(onWatch.body).toMatchObject({ status: 'onWatch', arrivalDate: '2026-01-10' });
    expect((await act(engineer, id, 'leave-watch')).body.status).toBe('active');
    expect((await act(engineer, id, 'arrive-on-watch')).body).toMatchObject({ status: 'onWatch', arrivalDate: today() });
    expect((await act(admin, id, 'leave-watch')).body.status).toBe('active');
    const vacation = await act(admin, id, 'go-on-vacation', { expectedReturnDate: shift(14) });
    expect(vacation.body).toMatchObject({ status: 'onVacation', expectedReturnDate: shift(14) });
    const back = await act(admin, id, 'return-from-vacation');
    expect(back.body).toMatchObject({ status: 'active', expectedReturnDate: null });
    const terminated = await act(admin, id, 'terminate', { reason: 'Contract ended' });
    expect(terminated.body).toMatchObject({ status: 'terminated', terminatedAt: today(), terminationReason: 'Contract ended' });
  });

  it('terminates from any status: onWatch and onVacation too', async () => {
    const watching = await hired();
    await act(engineer, watching.id, 'arrive-on-watch');
    expect((await act(admin, watching.id, 'terminate', { reason: 'r' })).body.status).toBe('terminated');
    const resting = await hired();
    await act(admin, resting.id, 'go-on-vacation', { expectedReturnDate: shift(3) });
    expect((await act(admin, resting.id, 'terminate', { reason: 'r' })).body.status).toBe('terminated');
  });

  it('refuses every move the table does not have with 409 STATE_CONFLICT, changing nothing', async () => {
    const { id } = await hired();
    const refused = async (verb: string, body: Record<string, unknown> = {}) => {
      const response = await act(admin, id, verb, body);
      expect(response.status, verb).toBe(409);
      expect(response.body.code).toBe('STATE_CONFLICT');
    };
    await refused('leave-watch');
    await refused('return-from-vacation');
    await act(admin, id, 'arrive-on-watch');
    await refused('arrive-on-watch');
    await refused('go-on-vacation', { expectedReturnDate: shift(3) });
    await refused('return-from-vacation');
    await act(admin, id, 'leave-watch');
    await act(admin, id, 'go-on-vacation', { expectedReturnDate: shift(3) });
    await refused('arrive-on-watch');
    await refused('leave-watch');
    await refused('go-on-vacation', { expectedReturnDate: shift(3) });
    await act(admin, id, 'terminate', { reason: 'r' });
    for (const verb of ['arrive-on-watch', 'leave-watch', 'return-from-vacation']) await refused(verb);
    await refused('terminate', { reason: 'again' });
    await refused('transfer', { toObjectId: south, reason: 'too late' });
    expect((await call(stack, admin, 'GET', `/api/v1/hr/personnel/${id}`)).body.status).toBe('terminated');
  });

  it('checks the bodies of transitions: dates, reason 1 to 500, a termination not before the hiring date', async () => {
    const { id } = await hired({ hiredAt: '2022-05-01' });
    expect((await act(admin, id, 'arrive-on-watch', { arrivalDate: 'soon' })).status).toBe(422);
    expect((await act(admin, id, 'go-on-vacation', {})).status).toBe(422);
    expect((await act(admin, id, 'terminate', { reason: '' })).status).toBe(422);
    expect((await act(admin, id, 'terminate', { reason: 'x'.repeat(501) })).status).toBe(422);
    const early = await act(admin, id, 'terminate', { reason: 'r', terminatedAt: '2022-04-30' });
    expect(early.status).toBe(422);
    expect(early.body.code).toBe('HR_DATE_ORDER');
    const onTheDay = await act(admin, id, 'terminate', { reason: 'x'.repeat(500), terminatedAt: '2022-05-01' });
    expect(onTheDay.body).toMatchObject({ status: 'terminated', terminatedAt: '2022-05-01' });
  });
});

describe('object scope', () => {
  it('shows a Foreman the employees of their object and of none, and answers 404 for another object’s', async () => {
    const mine = await hired({ objectId: north });
    const theirs = await hired({ objectId: south });
    const unassigned = await hired({ objectId: undefined });
    expect((await call(stack, foreman, 'GET', `/api/v1/hr/personnel/${mine.id}`)).status).toBe(200);
    const hidden = await call(stack, foreman, 'GET', `/api/v1/hr/personnel/${theirs.id}`);
    const missing = await call(stack, foreman, 'GET', `/api/v1/hr/personnel/${randomUUID()}`);
    expect(hidden.status).toBe(404);
    expect({ ...hidden.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
    expect((await act(foreman, theirs.id, 'arrive-on-watch')).status).toBe(404);
    expect((await act(foreman, mine.id, 'arrive-on-watch')).body.status).toBe('onWatch');
    const list = await call(stack, foreman, 'GET', '/api/v1/hr/personnel?limit=200');
    const ids = (list.body.items as Array<{ id: string; objectId: string | null }>).map((item) => item.id);
    expect(ids).toContain(mine.id);
    expect(ids).toContain(unassigned.id);
    expect(ids).not.toContain(theirs.id);
    expect((list.body.items as Array<{ objectId: string | null }>).every((item) => item.objectId !== south)).toBe(true);
  });
});

describe('the list', () => {
  it('filters by object, status and position, and pages with a cursor from 1 to 200 items', async () => {
    const blasters = [await hired({ positionId: blaster, objectId: south }), await hired({ positionId: blaster, objectId: south })];
    await act(admin, blasters[0]!.id, 'go-on-vacation', { expectedReturnDate: shift(5) });
    const byPosition = await call(stack, engineer, 'GET', `/api/v1/hr/personnel?positionId=${blaster}&objectId=${south}`);
    expect((byPosition.body.items as Array<{ id: string }>).map((item) => item.id).sort()).toEqual(blasters.map((b) => b.id).sort());
    const byStatus = await call(stack, engineer, 'GET', `/api/v1/hr/personnel?positionId=${blaster}&status=onVacation`);
    expect(byStatus.body.items.map((item: { id: string }) => item.id)).toEqual([blasters[0]!.id]);
    const all = await call(stack, admin, 'GET', '/api/v1/hr/personnel?limit=200');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Call = await call(stack, admin, 'GET', `/api/v1/hr/personnel?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((item: { id: string }) => item.id));
    const names = all.body.items.map((item: { fullName: string }) => item.fullName);
    expect(new Set(seen).size).toBe(seen.length);
    expect(names.length).toBeGreaterThan(3);
    for (const limit of [0, 201]) expect((await call(stack, admin, 'GET', `/api/v1/hr/personnel?limit=${limit}`)).status).toBe(422);
    expect((await call(stack, admin, 'GET', '/api/v1/hr/personnel?status=away')).status).toBe(422);
  });
});

describe('GraphQL', () => {
  it('hires and reads an employee through /graphql with the same rules', async () => {
    const headers = { authorization: `Bearer ${admin.token}`, 'idempotency-key': randomUUID() };
    const created = await stack.graphql<{ hrHirePersonnel: { id: string; status: string } }>(
      `mutation ($positionId: ID!) { hrHirePersonnel(fullName: "Graph Ql", tabNumber: "GQL-1", positionId: $positionId, hiredAt: "2024-01-01") { id status } }`,
      { positionId: driller },
      headers,
    );
    expect(created.body.data?.hrHirePersonnel.status).toBe('active');
    const read = await stack.graphql<{ hrGetPersonnel: { tabNumber: string } }>(
      `query ($id: ID!) { hrGetPersonnel(id: $id) { tabNumber } }`,
      { id: created.body.data?.hrHirePersonnel.id },
      { authorization: `Bearer ${engineer.token}` },
    );
    expect(read.body.data?.hrGetPersonnel.tabNumber).toBe('GQL-1');
    const refused = await stack.graphql(
      `mutation ($positionId: ID!) { hrHirePersonnel(fullName: "x", tabNumber: "GQL-2", positionId: $positionId, hiredAt: "1980-01-01") { id } }`,
      { positionId: driller },
      { ...headers, 'idempotency-key': randomUUID() },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
