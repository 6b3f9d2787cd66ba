import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Call, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/** Brigades over REST: creation and its bounds, who sees which, memberships (one active per employee, also under concurrency), disbanding. */

let stack: TestStack;
let admin: Session;
let engineer: Session;
let foreman: Session;
let mechanic: Session;
let otib: Session;
let north: string;
let south: string;
let position: string;
let tab = 0;

const today = () => new Date().toISOString().slice(0, 10);

async function employee(objectId: string | undefined = north): Promise<string> {
  tab += 1;
  const body = { fullName: `Member ${tab}`, tabNumber: `B-${tab}`, positionId: position, hiredAt: '2021-01-01', objectId };
  const response = await call(stack, admin, 'POST', '/api/v1/hr/personnel', body, idempotencyKey());
  expect(response.status).toBe(201);
  return response.body.id;
}

const create = (session: Session, body: Record<string, unknown>) =>
  call(stack, session, 'POST', '/api/v1/hr/brigades', body, idempotencyKey());

async function brigade(overrides: Record<string, unknown> = {}, session = engineer): Promise<string> {
  const response = await create(session, {
    name: `Brigade ${randomUUID().slice(0, 8)}`,
    objectId: north,
    workType: 'drilling',
    ...overrides,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

const join = (brigadeId: string, body: Record<string, unknown>, session = engineer) =>
  call(stack, session, 'POST', `/api/v1/hr/brigades/${brigadeId}/members`, body, idempotencyKey());
const roster = async (brigadeId: string) => (await call(stack, admin, 'GET', `/api/v1/hr/brigades/${brigadeId}/roster`)).body;

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  [admin, engineer, foreman, mechanic, otib] = await Promise.all([
    login(stack, demoEmail('Admin')),
    login(stack, demoEmail('Engineer')),
    login(stack, demoEmail('Foreman')),
    login(stack, demoEmail('Mechanic')),
    login(stack, demoEmail('OtibSpecialist')),
  ]);
  const objects = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string; code: string }>;
  north = objects.find((object) => object.code === 'NORTH')!.id;
  south = objects.find((object) => object.code === 'SOUTH')!.id;
  position = (await call(stack, admin, 'GET', '/api/v1/hr/positions')).body[0].id;
});
afterAll(async () => {
  await stack?.stop();
});

describe('creating and updating', () => {
  it('creates an active brigade with a brigadier and refuses names outside 1 to 200 and unknown work types', async () => {
    const lead = await employee();
    const created = await create(engineer, { name: 'x'.repeat(200), objectId: north, workType: 'blasting', brigadierId: lead });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ objectId: north, workType: 'blasting', brigadierId: lead, isActive: true, disbandedAt: null });
    for (const body of [
      { name: '', objectId: north, workType: 'drilling' },
      { name: 'x'.repeat(201), objectId: north, workType: 'drilling' },
      { name: 'n', objectId: north, workType: 'hauling' },
      { name: 'n', objectId: 'north', workType: 'drilling' },
      { name: 'n', workType: 'drilling' },
    ]) {
      expect((await create(engineer, body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('refuses a brigadier who is unknown, terminated or of another object', async () => {
    const unknown = await create(admin, { name: 'n', objectId: north, workType: 'drilling', brigadierId: randomUUID() });
    expect(unknown.body.code).toBe('HR_REFERENCE_NOT_FOUND');
    const southern = await employee(south);
    const elsewhere = await create(admin, { name: 'n', objectId: north, workType: 'drilling', brigadierId: southern });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.code).toBe('HR_OTHER_OBJECT');
    const gone = await employee();
    await call(stack, admin, 'POST', `/api/v1/hr/personnel/${gone}/terminate`, { reason: 'left' }, idempotencyKey());
    const terminated = await create(admin, { name: 'n', objectId: north, workType: 'drilling', brigadierId: gone });
    expect(terminated.status).toBe(409);
    expect(terminated.body.code).toBe('HR_PERSONNEL_TERMINATED');
  });

  it('lets a Foreman create brigades at their object only', async () => {
    expect(await brigade({}, foreman)).toBeTruthy();
    const elsewhere = await create(foreman, { name: 'South team', objectId: south, workType: 'drilling' });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.code).toBe('HR_REFERENCE_NOT_FOUND');
  });

  it('updates name, work type and brigadier; null removes the brigadier', async () => {
    const id = await brigade();
    const lead = await employee();
    const patch = (body: Record<string, unknown>) => call(stack, foreman, 'PATCH', `/api/v1/hr/brigades/${id}`, body, idempotencyKey());
    expect((await patch({ name: 'Renamed', workType: 'auxiliary', brigadierId: lead })).body).toMatchObject({
      name: 'Renamed',
      workType: 'auxiliary',
      brigadierId: lead,
    });
    expect((await patch({ name: 'Again' })).body).toMatchObject({ name: 'Again', workType: 'auxiliary', brigadierId: lead });
    expect((await patch({ brigadierId: null })).body.brigadierId).toBeNull();
    expect((await patch({ name: '' })).status).toBe(422);
    expect((await call(stack, mechanic, 'PATCH', `/api/v1/hr/brigades/${id}`, { name: 'x' }, idempotencyKey())).status).toBe(403);
  });
});

describe('who sees which brigade', () => {
  it('shows CEO, Engineer, Admin and OtibSpecialist every object, Foreman and Mechanic only theirs', async () => {
    const northern = await brigade({ objectId: north, workType: 'auxiliary' });
    const southern = await brigade({ objectId: south, workType: 'auxiliary' });
    const ids = async (session: Session) =>
      ((await call(stack, session, 'GET', '/api/v1/hr/brigades?workType=auxiliary&limit=200')).body.items as Array<{ id: string }>).map(
        (item) => item.id,
      );
    for (const session of [admin, engineer, otib, await login(stack, demoEmail('CEO'))]) {
      expect(await ids(session)).toEqual(expect.arrayContaining([northern, southern]));
    }
    for (const session of [foreman, mechanic]) {
      const seen = await ids(session);
      expect(seen).toContain(northern);
      expect(seen).not.toContain(southern);
      expect((await call(stack, session, 'GET', `/api/v1/hr/brigades/${southern}`)).status).toBe(404);
      expect((await call(stack, session, 'GET', `/api/v1/hr/brigades/${southern}/roster`)).status).toBe(404);
    }
    expect((await call(stack, foreman, 'POST', `/api/v1/hr/brigades/${southern}/disband`, undefined, idempotencyKey())).status).toBe(404);
  });

  it('lists active brigades by default, disbanded ones with isActive=false, filtered by object and work type, paged by cursor', async () => {
    const kept = await brigade({ objectId: south, workType: 'blasting', name: 'Kept' });
    const gone = await brigade({ objectId: south, workType: 'blasting', name: 'Gone' });
    await call(stack, admin, 'POST', `/api/v1/hr/brigades/${gone}/disband`, undefined, idempotencyKey());
    const list = (query: string) => call(stack, admin, 'GET', `/api/v1/hr/brigades?objectId=${south}&workType=blasting${query}`);
    expect((await list('')).body.items.map((item: { id: string }) => item.id)).toEqual([kept]);
    expect((await list('&isActive=false')).body.items.map((item: { id: string }) => item.id)).toEqual([gone]);
    const all = (await call(stack, admin, 'GET', '/api/v1/hr/brigades?limit=200')).body.items.map((item: { id: string }) => item.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Call = await call(stack, admin, 'GET', `/api/v1/hr/brigades?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
    expect(all.length).toBeGreaterThan(2);
    for (const limit of [0, 201]) expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades?limit=${limit}`)).status).toBe(422);
  });
});

describe('memberships', () => {
  it('adds a member from today by default and lists the active roster', async () => {
    const id = await brigade();
    const person = await employee();
    const joined = await join(id, { personnelId: person });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ brigadeId: id, personnelId: person, fromDate: today(), toDate: null });
    expect(await roster(id)).toEqual([joined.body]);
  });

  it('closes an active membership in another brigade in the same transaction, on the day the new one begins', async () => {
    const first = await brigade();
    const second = await brigade();
    const person = await employee();
    await join(first, { personnelId: person, fromDate: '2026-01-01' });
    const early = await join(second, { personnelId: person, fromDate: '2025-12-31' });
    expect(early.status).toBe(422);
    expect(early.body.code).toBe('HR_DATE_ORDER');
    const moved = await join(second, { personnelId: person, fromDate: '2026-02-01' });
    expect(moved.status).toBe(201);
    expect(await roster(first)).toEqual([]);
    expect((await roster(second)).map((entry: { personnelId: string }) => entry.personnelId)).toEqual([person]);
    const history = await call(stack, admin, 'GET', `/api/v1/core/audit?entityType=BrigadeMembership&entityId=${moved.body.id}`);
    expect(history.body.items).toHaveLength(1);
    const again = await join(second, { personnelId: person });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('HR_ALREADY_MEMBER');
  });

  it('refuses unknown employees, employees of another object and disbanded brigades', async () => {
    const id = await brigade();
    expect((await join(id, { personnelId: randomUUID() })).body.code).toBe('HR_REFERENCE_NOT_FOUND');
    const southern = await employee(south);
    expect((await join(id, { personnelId: southern })).body.code).toBe('HR_OTHER_OBJECT');
    expect((await join(id, { personnelId: await employee(), fromDate: 'today' })).status).toBe(422);
    expect((await join(randomUUID(), { personnelId: await employee() })).status).toBe(404);
  });

  it('keeps one active membership per employee under 10 concurrent add-member calls into 10 brigades', async () => {
    const brigades = await Promise.all(Array.from({ length: 10 }, () => brigade()));
    const person = await employee();
    const responses = await Promise.all(brigades.map((id) => join(id, { personnelId: person })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    const rosters = await Promise.all(brigades.map(roster));
    const active = rosters.flat().filter((entry: { personnelId: string }) => entry.personnelId === person);
    expect(active).toHaveLength(1);
    expect(active[0].toDate).toBeNull();
  });

  it('keeps one active membership under 10 concurrent calls adding one employee to one brigade: one 201, nine 409', async () => {
    const id = await brigade();
    const person = await employee();
    const responses = await Promise.all(Array.from({ length: 10 }, () => join(id, { personnelId: person })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.body.code === 'HR_ALREADY_MEMBER')).toHaveLength(9);
    expect(await roster(id)).toHaveLength(1);
  });

  it('has the database refuse a second active membership written directly', async () => {
    const first = await brigade();
    const second = await brigade();
    const person = await employee();
    await join(first, { personnelId: person });
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const insert = db.query(
        `insert into operations.brigade_membership (organization_id, brigade_id, personnel_id, from_date)
         select organization_id, id, $2, current_date from operations.brigade where id = $1`,
        [second, person],
      );
      await expect(insert).rejects.toMatchObject({ code: '23505', constraint: 'brigade_membership_one_active' });
    } finally {
      await db.end();
    }
  });
});

describe('disbanding', () => {
  it('deactivates the brigade and closes every active membership; a second disband and new members are refused', async () => {
    const id = await brigade();
    const members = [await employee(), await employee(), await employee()];
    for (const person of members) expect((await join(id, { personnelId: person, fromDate: '2026-01-01' })).status).toBe(201);
    const disbanded = await call(stack, foreman, 'POST', `/api/v1/hr/brigades/${id}/disband`, undefined, idempotencyKey());
    expect(disbanded.status).toBe(200);
    expect(disbanded.body).toMatchObject({ id, isActive: false });
    expect(disbanded.body.disbandedAt).toEqual(expect.any(String));
    expect(await roster(id)).toEqual([]);
    const again = await call(stack, admin, 'POST', `/api/v1/hr/brigades/${id}/disband`, undefined, idempotencyKey());
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('STATE_CONFLICT');
    expect((await join(id, { personnelId: await employee() })).body.code).toBe('STATE_CONFLICT');
    expect((await call(stack, admin, 'PATCH', `/api/v1/hr/brigades/${id}`, { name: 'x' }, idempotencyKey())).status).toBe(409);
    const other = await brigade();
    expect((await join(other, { personnelId: members[0]!, fromDate: '2026-01-02' })).status).toBe(201);
  });
});

describe('the trash', () => {
  const remove = (id: string, session = engineer) => call(stack, session, 'DELETE', `/api/v1/hr/brigades/${id}`);
  const listed = async (query: string) =>
    ((await call(stack, admin, 'GET', `/api/v1/hr/brigades?limit=200${query}`)).body.items as Array<{ id: string }>).map((item) => item.id);

  it('moves a brigade without active members to the trash, out of list, card and roster, and restores it from /core/trash/brigades', async () => {
    const id = await brigade({ workType: 'auxiliary' });
    const member = await employee();
    expect((await join(id, { personnelId: member })).status).toBe(201);
    const busy = await remove(id);
    expect([busy.status, busy.body.code]).toEqual([409, 'HR_BRIGADE_HAS_MEMBERS']);
    expect((await call(stack, engineer, 'POST', `/api/v1/hr/brigades/${id}/disband`, undefined, idempotencyKey())).status).toBe(200);

    const deleted = await remove(id);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ id, deletedAt: expect.any(String) });
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${id}`)).status).toBe(404);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${id}/roster`)).status).toBe(404);
    expect(await listed('&isActive=false')).not.toContain(id);
    expect((await call(stack, admin, 'PATCH', `/api/v1/hr/brigades/${id}`, { name: 'x' }, idempotencyKey())).status).toBe(404);
    expect((await call(stack, admin, 'POST', `/api/v1/hr/brigades/${id}/disband`, undefined, idempotencyKey())).status).toBe(404);
    expect((await join(id, { personnelId: member })).status).toBe(404);
    expect((await remove(id)).status).toBe(404);

    expect((await call(stack, admin, 'GET', '/api/v1/core/trash')).body.entities).toContain('Brigade');
    const trash = await call(stack, admin, 'GET', '/api/v1/core/trash/brigades?limit=200');
    expect(trash.status).toBe(200);
    expect(trash.body.entity).toBe('Brigade');
    expect(trash.body.rows.find((row: { id: string }) => row.id === id)).toMatchObject({ id, deletedAt: expect.any(String) });

    const restored = await call(stack, admin, 'POST', `/api/v1/core/trash/brigades/${id}/restore`, undefined, idempotencyKey());
    expect([restored.status, restored.body]).toEqual([200, { id }]);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${id}`)).body).toMatchObject({ id, isActive: false });
    expect(await listed('&isActive=false')).toContain(id);
    const again = await call(stack, admin, 'POST', `/api/v1/core/trash/brigades/${id}/restore`, undefined, idempotencyKey());
    expect([again.status, again.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
  });

  it('lets Engineer, Foreman and Admin delete within their objects: a Foreman gets 404 at another object, a Mechanic 403', async () => {
    const southern = await brigade({ objectId: south });
    expect((await remove(southern, foreman)).status).toBe(404);
    expect((await remove(southern, mechanic)).status).toBe(403);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${southern}`)).status).toBe(200);
    const northern = await brigade({ objectId: north });
    expect((await remove(northern, foreman)).status).toBe(200);
    expect((await remove(southern, admin)).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('lists brigades and their roster through /graphql', async () => {
    const id = await brigade({ name: 'Graph brigade', objectId: south, workType: 'auxiliary' });
    const response = await stack.graphql<{
      hrListBrigades: { items: Array<{ id: string; isActive: boolean }> };
      hrBrigadeRoster: unknown[];
    }>(
      `query ($objectId: ID, $id: ID!) { hrListBrigades(objectId: $objectId, workType: auxiliary) { items { id isActive } } hrBrigadeRoster(id: $id) { id } }`,
      { objectId: south, id },
      { authorization: `Bearer ${otib.token}` },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.hrListBrigades.items).toContainEqual({ id, isActive: true });
    expect(response.body.data?.hrBrigadeRoster).toEqual([]);
  });
});
