import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, idempotencyKey, type Session } from '../support/operations.js';
import { PersonnelWorld } from '../support/hr.js';
import type { TestStack } from '../support/stack.js';

/** Personnel over REST: corrections, transfers between objects, and termination against open assignments (with and without force). */

let stack: TestStack;
let admin: Session;
let engineer: Session;
let foreman: Session;
let north: string;
let south: string;
let blaster: string;

let world: PersonnelWorld;
const hired = (overrides: Record<string, unknown> = {}) => world.hired(overrides);
const act = (session: Session, id: string, verb: string, body: Record<string, unknown> = {}) => world.act(session, id, verb, body);

beforeAll(async () => {
  world = await PersonnelWorld.start();
  ({ stack, admin, engineer, foreman, north, south, blaster } = world);
});
afterAll(async () => {
  await world?.stop();
});

/**
 * An employee hired at NORTH who leads one brigade there and is a member (from 2026-01-05) of
 * another, both made by `session`; `joined` is the answer to the membership.
 */
async function assigned(session: Session) {
  const person = await hired({ objectId: north });
  const led = await call(
    stack,
    session,
    'POST',
    '/api/v1/hr/brigades',
    { name: 'Led', objectId: north, workType: 'blasting', brigadierId: person.id },
    idempotencyKey(),
  );
  const member = await call(
    stack,
    session,
    'POST',
    '/api/v1/hr/brigades',
    { name: 'Member of', objectId: north, workType: 'drilling' },
    idempotencyKey(),
  );
  const joined = await call(
    stack,
    session,
    'POST',
    `/api/v1/hr/brigades/${member.body.id}/members`,
    { personnelId: person.id, fromDate: '2026-01-05' },
    idempotencyKey(),
  );
  return { person, led: led.body.id as string, member: member.body.id as string, joined };
}

describe('corrections and transfers', () => {
  it('corrects the card, clears optional fields with null, and keeps tabNumber unique', async () => {
    const { id } = await hired({ phone: '123', email: 'a@example.org', birthDate: '1990-01-01' });
    const patched = await call(
      stack,
      admin,
      'PATCH',
      `/api/v1/hr/personnel/${id}`,
      { fullName: 'Renamed', positionId: blaster, phone: null, email: null, birthDate: null },
      idempotencyKey(),
    );
    expect(patched.body).toMatchObject({
      fullName: 'Renamed',
      positionId: blaster,
      phone: null,
      email: null,
      birthDate: null,
      objectId: north,
    });
    const other = await hired();
    const clash = await call(stack, admin, 'PATCH', `/api/v1/hr/personnel/${id}`, { tabNumber: other.tabNumber }, idempotencyKey());
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('HR_TAB_NUMBER_TAKEN');
    expect((await call(stack, engineer, 'PATCH', `/api/v1/hr/personnel/${id}`, { fullName: 'x' }, idempotencyKey())).status).toBe(403);
  });

  it('transfers to another object with a reason; same object, unknown object and bad reasons are refused', async () => {
    const { id } = await hired({ objectId: north });
    const moved = await act(engineer, id, 'transfer', {
      toObjectId: south,
      reason: 'Needed at the south pit',
      effectiveFrom: '2026-02-01',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.objectId).toBe(south);
    expect((await act(foreman, id, 'arrive-on-watch')).status).toBe(404);
    const same = await act(admin, id, 'transfer', { toObjectId: south, reason: 'again' });
    expect(same.status).toBe(422);
    expect(same.body.code).toBe('HR_SAME_OBJECT');
    expect((await act(admin, id, 'transfer', { toObjectId: randomUUID(), reason: 'r' })).body.code).toBe('HR_REFERENCE_NOT_FOUND');
    expect((await act(admin, id, 'transfer', { toObjectId: north, reason: '' })).status).toBe(422);
    expect((await act(admin, id, 'transfer', { toObjectId: north, reason: 'x'.repeat(1001) })).status).toBe(422);
    expect((await act(admin, id, 'transfer', { toObjectId: north, reason: 'x'.repeat(1000) })).body.objectId).toBe(north);
    const history = await call(stack, admin, 'GET', `/api/v1/core/audit?entityType=Personnel&entityId=${id}`);
    expect(history.body.items.filter((item: { operation: string }) => item.operation === 'hrTransferPersonnel')).toHaveLength(2);
  });

  it('on a transfer, closes the membership in a brigade of the old object and ends the lead of its brigades', async () => {
    const { person, led, member, joined } = await assigned(engineer);
    expect(joined.status).toBe(201);
    await act(admin, person.id, 'transfer', { toObjectId: south, reason: 'moved', effectiveFrom: '2026-03-01' });
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${member}/roster`)).body).toEqual([]);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${led}`)).body.brigadierId).toBeNull();
  });
});

describe('termination and open assignments', () => {
  it('refuses to terminate an employee with an active membership or the lead of an active brigade, naming both', async () => {
    const { person, led, member } = await assigned(admin);
    const refused = await act(admin, person.id, 'terminate', { reason: 'Leaving' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('HR_OPEN_ASSIGNMENTS');
    expect(refused.body.detail).toContain(member);
    expect(refused.body.detail).toContain(led);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/personnel/${person.id}`)).body.status).toBe('active');
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${member}/roster`)).body).toHaveLength(1);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${led}`)).body.brigadierId).toBe(person.id);
  });

  it('with force, closes the membership as of the termination date and removes the brigadier in the same transaction', async () => {
    const { person, led, member } = await assigned(admin);
    const terminated = await act(admin, person.id, 'terminate', { reason: 'Leaving', terminatedAt: '2026-02-01', force: true });
    expect(terminated.body).toMatchObject({ status: 'terminated', terminatedAt: '2026-02-01' });
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${member}/roster`)).body).toEqual([]);
    expect((await call(stack, admin, 'GET', `/api/v1/hr/brigades/${led}`)).body.brigadierId).toBeNull();
    const rejoin = await call(stack, admin, 'POST', `/api/v1/hr/brigades/${member}/members`, { personnelId: person.id }, idempotencyKey());
    expect(rejoin.status).toBe(409);
    expect(rejoin.body.code).toBe('HR_PERSONNEL_TERMINATED');
  });

  it('terminates without force an employee with no open assignment', async () => {
    const { id } = await hired();
    expect((await act(admin, id, 'terminate', { reason: 'Retired', force: false })).body.status).toBe('terminated');
  });
});
