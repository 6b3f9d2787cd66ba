import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, login, OPERATIONS_ENV, otherOrganization, type Session } from '../support/operations.js';
import { importOne } from '../support/foreign-records/core.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * `POST /api/v1/iam/users` stored whatever `objectIds` it was given: an Admin (or the
 * super-admin) could give a new user another organization's production objects. They are
 * now checked as `PATCH /api/v1/iam/users/:id` checks them: production objects of the
 * organization the user is created in, else 422 naming `objectIds` — the same answer for
 * another organization's object as for one that does not exist.
 */

let stack: TestStack;
let admin: Session;
let root: Session;
let elsewhere: string;
let ownObject: string;
let foreignObject: string;

const newUser = (session: Session, objectIds: string[], extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(
    stack,
    session,
    'POST',
    '/api/v1/iam/users',
    { email: `${randomUUID()}@example.org`, password: 'user-password', name: 'Foreman', roles: ['Foreman'], objectIds, ...extra },
    headers,
  );

/** A refusal with the ids it names taken out, to compare two refusals. */
const shape = (body: Record<string, unknown>, id: string) =>
  JSON.parse(JSON.stringify({ ...body, instance: undefined }).replaceAll(id, '<id>'));

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  admin = await login(stack, demoEmail('Admin'));
  const theirs = await otherOrganization(stack, 'elsewhere', 'Elsewhere');
  root = theirs.root;
  elsewhere = theirs.organizationId;
  foreignObject = await importOne({ stack, ...theirs }, '/api/v1/core/production-objects', 'far');
  ownObject = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body[0].id;
});
afterAll(async () => {
  await stack?.stop();
});

describe('a new user’s objectIds', () => {
  it('are refused with 422 naming objectIds for another organization’s object exactly as for a missing one', async () => {
    const missing = randomUUID();
    const theirs = await newUser(admin, [ownObject, foreignObject]);
    const absent = await newUser(admin, [ownObject, missing]);
    expect([theirs.status, theirs.body.code, theirs.body.errors?.[0]?.field]).toEqual([422, 'VALIDATION_FAILED', 'objectIds']);
    expect(JSON.stringify(theirs.body)).toContain(foreignObject);
    expect(JSON.stringify(theirs.body)).not.toContain(ownObject);
    expect(shape(theirs.body, foreignObject)).toEqual(shape(absent.body, missing));
  });

  it('are refused for the super-admin when they are not objects of the organization the user is created in', async () => {
    const refused = await newUser(root, [ownObject], { organizationId: elsewhere });
    expect([refused.status, refused.body.errors?.[0]?.field]).toEqual([422, 'objectIds']);
    const acting = await newUser(root, [foreignObject], {}, { 'x-organization-id': admin.organizationId! });
    expect([acting.status, acting.body.errors?.[0]?.field]).toEqual([422, 'objectIds']);
  });

  it('are refused over GraphQL as over REST', async () => {
    const response = await stack.graphql(
      'mutation ($objectIds: [ID!]) { iamCreateUser(email: "gql@example.org", password: "user-password", name: "G", roles: ["Foreman"], objectIds: $objectIds) { id } }',
      { objectIds: [foreignObject] },
      { authorization: `Bearer ${admin.token}` },
    );
    expect(response.body.data?.iamCreateUser ?? null).toBeNull();
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', param: 'objectIds' });
  });

  it('are accepted for objects of the organization the user is created in, by an Admin and by the super-admin', async () => {
    const own = await newUser(admin, [ownObject, ownObject]);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.objectIds).toEqual([ownObject]);
    const there = await newUser(root, [foreignObject], { organizationId: elsewhere }, { 'x-organization-id': admin.organizationId! });
    expect(there.status, JSON.stringify(there.body)).toBe(201);
    expect(there.body).toMatchObject({ organizationId: elsewhere, objectIds: [foreignObject] });
  });
});
