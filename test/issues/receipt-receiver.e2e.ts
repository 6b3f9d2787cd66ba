import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, otherOrganization, type Session } from '../support/operations.js';
import { importOne } from '../support/foreign-records/core.js';
import { StockFixtures } from '../support/scm.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * `POST /api/v1/scm/tmc/receipts` stored any `receivedById`: a user id, a random id, or an
 * employee of another organization. The seed names it a personnel id; it is now checked as
 * one, within the caller's organization: another organization's employee, a user id and a
 * missing id are refused alike (404 `RECORD_NOT_FOUND`, "Personnel not found.").
 */

let stack: TestStack;
let supply: Session;
let stock: StockFixtures;
let warehouseId: string;
let itemId: string;
let foreignEmployee: string;

/** A refusal with the id it names taken out, to compare two refusals. */
const shape = (body: Record<string, unknown>, id: string) =>
  JSON.parse(JSON.stringify({ ...body, instance: undefined }).replaceAll(id, '<id>'));

const receiveBy = (receivedById: string) => stock.receive(warehouseId, [{ itemId, quantity: 1, price: 10 }], { receivedById });

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  supply = await login(stack, demoEmail('Supply'));
  stock = new StockFixtures(stack, supply);
  warehouseId = await stock.warehouse(Object.values(await stock.objects())[0]!);
  itemId = await stock.item();
  const elsewhere = await otherOrganization(stack, 'elsewhere', 'Elsewhere');
  const context = { stack, ...elsewhere };
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'far');
  const positionId = await importOne(context, '/api/v1/hr/positions', 'far-position');
  const hired = await call(
    stack,
    elsewhere.admin,
    'POST',
    '/api/v1/hr/personnel',
    { fullName: 'Far Storekeeper', tabNumber: 'FAR-1', positionId, objectId, hiredAt: '2020-01-01' },
    idempotencyKey(),
  );
  expect(hired.status).toBe(201);
  foreignEmployee = hired.body.id;
});
afterAll(async () => {
  await stack?.stop();
});

describe('a receipt’s receivedById', () => {
  it('is refused for another organization’s employee exactly as for a missing one', async () => {
    const missing = randomUUID();
    const theirs = await receiveBy(foreignEmployee);
    const absent = await receiveBy(missing);
    expect([theirs.status, theirs.body.code, theirs.body.detail]).toEqual([404, 'RECORD_NOT_FOUND', 'Personnel not found.']);
    expect(shape(theirs.body, foreignEmployee)).toEqual(shape(absent.body, missing));
  });

  it('is refused for a user id, which names no employee', async () => {
    const refused = await receiveBy(supply.userId);
    expect([refused.status, refused.body.code, refused.body.detail]).toEqual([404, 'RECORD_NOT_FOUND', 'Personnel not found.']);
  });

  it('is accepted for an employee of the caller’s organization', async () => {
    const received = await receiveBy(await stock.receiver());
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    expect(await stock.balance(warehouseId, itemId)).toBe(1);
  });
});
