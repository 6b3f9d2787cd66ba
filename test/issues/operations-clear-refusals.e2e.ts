import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Call, type Session } from '../support/operations.js';
import { INVENTORIES, StockFixtures, WAREHOUSES } from '../support/scm.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Input a hostile probe of the operations API sent that answered 500 or was silently
 * taken for something else: malformed cursors, text PostgreSQL cannot store, and a
 * body with a hundred thousand bad items. Each is a 422 Problem naming the field.
 */

let stack: TestStack;
let admin: Session;
let supply: Session;

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  admin = await login(stack, demoEmail('Admin'));
  supply = await login(stack, demoEmail('Supply'));
});
afterAll(async () => {
  await stack?.stop();
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Cursors no list ever handed out. */
const MALFORMED_CURSORS = [
  '-1',
  '0',
  'abc',
  '!!!',
  'null',
  'undefined',
  "' or 1=1 --",
  b64('{"id":"00000000-0000-0000-0000-000000000000"}'),
  b64('{"offset":10}'),
  b64("1' union select password_hash from operations.app_user --"),
  b64('select 1'),
  '00000000-0000-0000-0000-00000000000g',
  '00000000000000000000000000000000x',
  '2026-11-27T10:00:00.000000Z',
  'x'.repeat(200),
  '%F0%9F%98%80',
];

/** Expects a 422 Problem whose `errors` name `field`. */
function expectProblemNaming(answer: Call, field: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(422);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  expect(answer.body).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
  expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
}

describe('a malformed cursor', () => {
  it.each(MALFORMED_CURSORS)('on the users list (%s) is a 422 naming cursor, not a 500', async (cursor) => {
    expectProblemNaming(await call(stack, admin, 'GET', `/api/v1/iam/users?cursor=${encodeURIComponent(cursor)}`), 'cursor');
  });

  it('on the users list still pages with the nextCursor it handed out', async () => {
    const first = await call(stack, admin, 'GET', '/api/v1/iam/users?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call(stack, admin, 'GET', `/api/v1/iam/users?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it.each(['abc', '-1', '2026-02-30T00:00:00.000000Z', 'Tue, 1 Dec 2026', b64('{"at":"2026-11-27"}')])(
    'on the audit list (%s) is a 422 naming cursor, not page 1 again',
    async (cursor) => {
      const [object] = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body;
      const path = `/api/v1/core/audit?entityType=ProductionObject&entityId=${object.id}&cursor=${encodeURIComponent(cursor)}`;
      expectProblemNaming(await call(stack, admin, 'GET', path), 'cursor');
    },
  );
});

describe('a lone surrogate in text', () => {
  it('in lines[].note of an inventory completion is a 422 naming the note, and the inventory stays open', async () => {
    const stock = new StockFixtures(stack, supply);
    const objects = await stock.objects();
    const warehouse = await stock.warehouse(objects.NORTH!);
    const item = await stock.item();
    await stock.stocked(warehouse, item, 3);
    const started = await stock.post(supply, INVENTORIES, { warehouseId: warehouse, inventoryDate: '2026-11-22' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const lineId = started.body.lines[0].id as string;
    const completed = await stock.post(supply, `${INVENTORIES}/${started.body.id}/complete`, {
      lines: [{ lineId, actualQuantity: 2, note: '\ud800' }],
    });
    expectProblemNaming(completed, 'lines[0].note');
    expect(completed.body.errors[0].message).toBe('must be well-formed Unicode text (no lone surrogates)');
    expect((await stock.get(supply, `${INVENTORIES}/${started.body.id}`)).body.status).toBe('in_progress');
  });

  it.each([
    ['a high surrogate alone', 'Склад \ud83d'],
    ['a low surrogate alone', '\udc00 Склад'],
    ['two halves in the wrong order', '\udc00\ud800'],
  ])('%s in a warehouse name is a 422 naming name', async (_case, name) => {
    const [object] = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body;
    const created = await call(stack, supply, 'POST', WAREHOUSES, { objectId: object.id, code: 'W-LONE', name }, idempotencyKey());
    expectProblemNaming(created, 'name');
  });

  it('a pair outside the BMP is text like any other', async () => {
    const [object] = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body;
    const created = await call(
      stack,
      supply,
      'POST',
      WAREHOUSES,
      { objectId: object.id, code: 'W-PAIR', name: 'Склад 😀' },
      idempotencyKey(),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.name).toBe('Склад 😀');
  });

  it('in a GraphQL argument is refused the same way', async () => {
    const { status, body } = await stack.graphql(
      'mutation($name: String!, $objectId: ID!) { scmCreateWarehouse(objectId: $objectId, code: "W-GQL", name: $name) { id } }',
      { name: '\ud800', objectId: '00000000-0000-0000-0000-000000000000' },
      { authorization: `Bearer ${supply.token}` },
    );
    expect(status).toBe(422);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', param: 'name' } });
  });
});

describe('a body with a hundred thousand bad items', () => {
  it('answers a 422 listing the first 100 errors and how many there were', async () => {
    const body = JSON.stringify({ email: 'many@example.org', name: 'Many', roles: ['Foreman'], objectIds: Array(100_000).fill(0) });
    expect(body.length).toBeLessThan(250_000);
    const response = await stack.fetch('/api/v1/iam/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}`, ...idempotencyKey() },
      body,
    });
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(text.length).toBeLessThan(50_000);
    const problem = JSON.parse(text);
    expect(problem).toMatchObject({ code: 'VALIDATION_FAILED', errorCount: 100_000, truncated: true });
    expect(problem.errors).toHaveLength(100);
    expect(problem.errors[0]).toMatchObject({ field: 'objectIds[0]' });
  });

  it('lists every error, without errorCount or truncated, when there are at most 100', async () => {
    const created = await call(
      stack,
      admin,
      'POST',
      '/api/v1/iam/users',
      { email: 'some@example.org', name: 'Some', roles: ['Foreman'], objectIds: Array(100).fill(0) },
      idempotencyKey(),
    );
    expect(created.status).toBe(422);
    expect(created.body.errors).toHaveLength(100);
    expect(created.body).not.toHaveProperty('truncated');
    expect(created.body).not.toHaveProperty('errorCount');
  });

  it('over GraphQL lists the first 100 in the extensions and says how many there were', async () => {
    const { status, body } = await stack.graphql(
      'mutation($objectIds: [ID!]) { iamCreateUser(email: "gql@example.org", name: "G", roles: ["Foreman"], objectIds: $objectIds) { id } }',
      { objectIds: Array.from({ length: 150 }, (_, index) => `not-a-uuid-${index}`) },
      { authorization: `Bearer ${admin.token}` },
    );
    expect(status).toBe(422);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', errorCount: 150, truncated: true });
    expect(body.errors?.[0]?.extensions?.details).toHaveLength(100);
  });
});
