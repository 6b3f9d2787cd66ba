import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { Actors } from '../support/actors.js';

/**
 * Fuel supply requests over REST: draft (editable) → submitted (approvers notified) →
 * approved → fulfilled by linking a supply; submitted → rejected (terminal) or back to
 * draft for rework.
 */

let actors: Actors;
let tankId: string;
let otherTankId: string;
let southTankId: string;
/** A supplier of the organization: a fuel supply names one. */
let supplierId: string;
const PATH = '/api/v1/scm/fuel/supply-requests';

async function draft(role: OperationsRole = 'Foreman', tank = () => tankId) {
  const response = await actors.act(role, 'POST', PATH, {
    tankId: tank(),
    requestedVolumeLiters: 5000,
    desiredDeliveryDate: '2026-12-15',
    justification: 'Запас на декаду',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; status: string };
}

const step = (role: OperationsRole, id: string, verb: string, body: unknown = {}) =>
  actors.act(role, 'POST', `${PATH}/${id}/${verb}`, body);
const supply = async (tank: string, quantityLiters = 4800, supplyRequestId: string | null = null) =>
  (await actors.act('Supply', 'POST', '/api/v1/scm/fuel/supplies', { tankId: tank, supplierId, quantityLiters, supplyRequestId })).body;

async function approved() {
  const request = await draft();
  await step('Foreman', request.id, 'submit');
  expect((await step('CEO', request.id, 'approve', {})).body.status).toBe('approved');
  return request;
}

beforeAll(async () => {
  actors = await Actors.start();
  const supplier = await actors.act('Supply', 'POST', '/api/v1/scm/suppliers', { bin: '971240001315', legalName: 'Fuel Supplier' });
  expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
  supplierId = supplier.body.id;
  const tank = async (code: string, objectId = actors.north) =>
    (
      await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
        objectId,
        code,
        capacityLiters: 60_000,
        minLevelLiters: 5000,
        initialBalanceLiters: 8000,
      })
    ).body.id;
  tankId = await tank('DT-NORTH-1');
  otherTankId = await tank('DT-NORTH-2');
  southTankId = await tank('DT-SOUTH-1', actors.south);
});
afterAll(async () => {
  await actors?.stop();
});

describe('drafts', () => {
  it('creates a request in draft for a tank the caller can see, within its bounds (422, 404)', async () => {
    const created = await draft('Mechanic');
    expect(created).toMatchObject({
      tankId,
      objectId: actors.north,
      requestedVolumeLiters: 5000,
      desiredDeliveryDate: '2026-12-15',
      justification: 'Запас на декаду',
      status: 'draft',
      initiatorId: actors.userId('Mechanic'),
      submittedAt: null,
      lastReturnComment: null,
    });
    const body = { tankId, requestedVolumeLiters: 1, desiredDeliveryDate: '2026-12-15', justification: 'x' };
    for (const bad of [
      { requestedVolumeLiters: 0 },
      { justification: '' },
      { justification: 'x'.repeat(2001) },
      { desiredDeliveryDate: '15.12.2026' },
    ]) {
      expect((await actors.act('Supply', 'POST', PATH, { ...body, ...bad })).status, JSON.stringify(bad)).toBe(422);
    }
    expect((await actors.act('Foreman', 'POST', PATH, { ...body, tankId: southTankId })).status).toBe(404);
    expect((await actors.act('Supply', 'POST', PATH, { ...body, tankId: randomUUID() })).status).toBe(404);
  });

  it('edits a request only in draft (409 STATE_CONFLICT once submitted)', async () => {
    const request = await draft();
    const edited = await actors.act('Foreman', 'PATCH', `${PATH}/${request.id}`, {
      requestedVolumeLiters: 6000.5,
      justification: 'Больше',
    });
    expect(edited.body).toMatchObject({ requestedVolumeLiters: 6000.5, justification: 'Больше', desiredDeliveryDate: '2026-12-15' });
    expect((await actors.act('Foreman', 'PATCH', `${PATH}/${request.id}`, { requestedVolumeLiters: -1 })).status).toBe(422);
    await step('Foreman', request.id, 'submit');
    const late = await actors.act('Foreman', 'PATCH', `${PATH}/${request.id}`, { justification: 'Поздно' });
    expect([late.status, late.body.code]).toEqual([409, 'STATE_CONFLICT']);
  });
});

describe('approval', () => {
  it('submits a draft and notifies the approvers through an event', async () => {
    const request = await draft();
    const submitted = await step('Foreman', request.id, 'submit');
    expect(submitted.body).toMatchObject({ status: 'submitted', submittedAt: expect.any(String) });
    const events = (await actors.events('scm.fuel.supply-request.submitted')).filter(
      (event) => event.payload.supplyRequestId === request.id,
    );
    expect(events).toEqual([
      {
        organization_id: actors.sessions.get('Foreman')!.organizationId,
        payload: expect.objectContaining({ tankId, requestedVolumeLiters: 5000, approverRoles: ['CEO', 'Engineer'] }),
      },
    ]);
    expect((await step('Foreman', request.id, 'submit')).body.code).toBe('STATE_CONFLICT');
  });

  it('returns a submitted request for rework with a comment of at least 10 characters, kept in lastReturnComment', async () => {
    const request = await draft();
    await step('Foreman', request.id, 'submit');
    expect((await step('Engineer', request.id, 'return', { comment: 'Коротко' })).status).toBe(422);
    const returned = await step('Engineer', request.id, 'return', { comment: 'Уточните объём на декаду' });
    expect(returned.body).toMatchObject({ status: 'draft', lastReturnComment: 'Уточните объём на декаду' });
    expect((await actors.act('Foreman', 'PATCH', `${PATH}/${request.id}`, { requestedVolumeLiters: 4000 })).status).toBe(200);
    expect((await step('Foreman', request.id, 'submit')).body.status).toBe('submitted');
  });

  it('rejects a submitted request with a reason of 10 to 1000 characters; rejected is terminal', async () => {
    const request = await draft();
    await step('Foreman', request.id, 'submit');
    for (const reason of ['Нет', 'x'.repeat(1001)]) expect((await step('CEO', request.id, 'reject', { reason })).status).toBe(422);
    const rejected = await step('CEO', request.id, 'reject', { reason: 'Бюджет исчерпан в этом месяце' });
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      rejectedById: actors.userId('CEO'),
      rejectReason: 'Бюджет исчерпан в этом месяце',
      rejectedAt: expect.any(String),
    });
    for (const [verb, body] of [
      ['submit', {}],
      ['approve', {}],
      ['return', { comment: 'Вернуть в работу' }],
      ['reject', { reason: 'Ещё раз отклонить' }],
    ] as const) {
      expect((await step('Engineer', request.id, verb, body)).body.code, verb).toBe('STATE_CONFLICT');
    }
  });

  it('approves only a submitted request, keeping the comment (up to 1000 characters)', async () => {
    const request = await draft();
    expect((await step('CEO', request.id, 'approve', {})).body.code).toBe('STATE_CONFLICT');
    await step('Foreman', request.id, 'submit');
    expect((await step('CEO', request.id, 'approve', { comment: 'x'.repeat(1001) })).status).toBe(422);
    const done = await step('Engineer', request.id, 'approve', { comment: 'Согласовано' });
    expect(done.body).toMatchObject({ status: 'approved', approvedById: actors.userId('Engineer'), approvalComment: 'Согласовано' });
  });
});

describe('fulfilment', () => {
  it('links the supply that fulfils an approved request; the request shows it with its supplies', async () => {
    const request = await approved();
    const receipt = await supply(tankId, 4800, request.id);
    const linked = await step('Supply', request.id, 'link-supply', { supplyId: receipt.id });
    expect(linked.body).toMatchObject({
      status: 'fulfilled',
      fulfilledSupplyId: receipt.id,
      fulfilledQuantityLiters: 5000,
      fulfilledAt: expect.any(String),
    });
    const card = await actors.act('Foreman', 'GET', `${PATH}/${request.id}`);
    expect(card.body).toMatchObject({ status: 'fulfilled', supplies: [{ id: receipt.id, kind: 'receipt', quantityLiters: 4800 }] });
    expect((await step('Supply', request.id, 'link-supply', { supplyId: receipt.id })).status).toBe(409);
    const partial = await approved();
    const other = await supply(tankId, 2000);
    const withQuantity = await step('Admin', partial.id, 'link-supply', { supplyId: other.id, fulfilledQuantityLiters: 1999.5 });
    expect(withQuantity.body.fulfilledQuantityLiters).toBe(1999.5);
  });

  it('refuses a supply of another tank or request, a reversal, a reversed or already linked supply', async () => {
    const request = await approved();
    const elsewhere = await supply(otherTankId);
    const forAnother = await supply(tankId, 100, (await approved()).id);
    const receipt = await supply(tankId, 300);
    const reversal = (
      await actors.act('Supply', 'POST', `/api/v1/scm/fuel/supplies/${receipt.id}/reverse`, {
        reason: 'Ошибка',
        comment: 'Записана ошибочно',
      })
    ).body;
    const linkedElsewhere = await supply(tankId, 500);
    await step('Supply', (await approved()).id, 'link-supply', { supplyId: linkedElsewhere.id });
    const cases: Array<[string, number, string]> = [
      [elsewhere.id, 422, 'FUEL_SUPPLY_MISMATCH'],
      [forAnother.id, 422, 'FUEL_SUPPLY_MISMATCH'],
      [reversal.id, 422, 'FUEL_SUPPLY_MISMATCH'],
      [receipt.id, 409, 'FUEL_SUPPLY_ALREADY_REVERSED'],
      [linkedElsewhere.id, 409, 'FUEL_SUPPLY_ALREADY_LINKED'],
      [randomUUID(), 404, 'RECORD_NOT_FOUND'],
    ];
    for (const [supplyId, status, code] of cases) {
      const refused = await step('Supply', request.id, 'link-supply', { supplyId });
      expect([refused.status, refused.body.code], code).toEqual([status, code]);
    }
    expect((await actors.act('CEO', 'GET', `${PATH}/${request.id}`)).body.status).toBe('approved');
  });

  it('links a supply to only one of two requests linking it at once', async () => {
    const [first, second] = [await approved(), await approved()];
    const receipt = await supply(tankId, 5000);
    const answers = await Promise.all(
      [first, second].map((request) => step('Supply', request.id, 'link-supply', { supplyId: receipt.id })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('FUEL_SUPPLY_ALREADY_LINKED');
  });
});

describe('bounds', () => {
  it('refuses a non-positive fulfilled quantity and page sizes outside 1 to 200 with 422', async () => {
    const request = await approved();
    const receipt = await supply(tankId, 100);
    for (const fulfilledQuantityLiters of [0, -1]) {
      expect((await step('Supply', request.id, 'link-supply', { supplyId: receipt.id, fulfilledQuantityLiters })).status).toBe(422);
    }
    for (const path of [PATH, '/api/v1/scm/fuel/supplies', '/api/v1/scm/fuel/tanks']) {
      for (const limit of [0, 201]) expect((await actors.act('CEO', 'GET', `${path}?limit=${limit}`)).status, `${path} ${limit}`).toBe(422);
      expect((await actors.act('CEO', 'GET', `${path}?limit=200`)).status).toBe(200);
    }
    expect((await actors.act('CEO', 'GET', `${PATH}/${request.id}`)).body.status).toBe('approved');
  });
});

describe('reading', () => {
  it('lists requests by tank and status, newest first; Foremen and Mechanics see their objects’ requests only', async () => {
    const away = await draft('Supply', () => southTankId);
    const listed = await actors.act('CEO', 'GET', `${PATH}?tankId=${southTankId}&status=draft`);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([away.id]);
    const page = await actors.act('CEO', 'GET', `${PATH}?limit=1`);
    expect(page.body.items[0].id).toBe(away.id);
    expect((await actors.act('CEO', 'GET', `${PATH}?limit=1&cursor=${page.body.nextCursor}`)).body.items[0].id).not.toBe(away.id);
    for (const role of ['Foreman', 'Mechanic'] as const) {
      expect((await actors.act(role, 'GET', `${PATH}/${away.id}`)).status).toBe(404);
      const mine = await actors.act(role, 'GET', `${PATH}?limit=200`);
      expect(mine.body.items.length).toBeGreaterThan(0);
      expect(mine.body.items.every((item: { objectId: string }) => item.objectId === actors.north)).toBe(true);
    }
    expect((await actors.act('CEO', 'GET', `${PATH}?status=closed`)).status).toBe(422);
  });
});

describe('GraphQL', () => {
  it('serves a request with its supplies and the tank’s derived status as REST does', async () => {
    const request = await approved();
    const receipt = await supply(tankId, 1000, request.id);
    const answer = await actors.stack.graphql<{
      scmGetFuelSupplyRequest: { status: string; supplies: Array<{ id: string; quantityLiters: number }> };
      scmGetFuelTank: { statusDerived: string };
    }>(
      'query ($id: ID!, $tank: ID!) { scmGetFuelSupplyRequest(id: $id) { status supplies { id quantityLiters } } scmGetFuelTank(id: $tank) { statusDerived } }',
      { id: request.id, tank: tankId },
      { authorization: `Bearer ${actors.sessions.get('Engineer')!.token}` },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({
      scmGetFuelSupplyRequest: { status: 'approved', supplies: [{ id: receipt.id, quantityLiters: 1000 }] },
      scmGetFuelTank: { statusDerived: (await actors.act('CEO', 'GET', `/api/v1/scm/fuel/tanks/${tankId}`)).body.statusDerived },
    });
  });
});

describe('audit', () => {
  it('has an audit row for every mutation this file made', async () => {
    expect(actors.mutations.length).toBeGreaterThan(40);
    expect(await actors.unaudited()).toEqual([]);
  });
});
