import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, otherOrganization, type Session } from '../support/operations.js';
import { importOne } from '../support/foreign-records/core.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * `POST /api/v1/core/documents` took an `entityId` of another organization's record
 * (201). The id is now checked by its `entityType` within the caller's organization:
 * another organization's record is refused exactly like one that does not exist.
 */

let stack: TestStack;
let engineer: Session;
let ownObject: string;
let foreignObject: string;

const initiate = (entityType: string, entityId: string) =>
  call(stack, engineer, 'POST', '/api/v1/core/documents', { entityType, entityId, filename: 'passport.pdf' }, idempotencyKey());

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  engineer = await login(stack, demoEmail('Engineer'));
  foreignObject = await importOne(
    { stack, ...(await otherOrganization(stack, 'elsewhere', 'Elsewhere')) },
    '/api/v1/core/production-objects',
    'far',
  );
  ownObject = (await call(stack, engineer, 'GET', '/api/v1/core/production-objects')).body[0].id;
});
afterAll(async () => {
  await stack?.stop();
});

describe('a document’s entityId', () => {
  it('is refused for another organization’s record exactly as for a missing one', async () => {
    const theirs = await initiate('core.production-object', foreignObject);
    const missing = await initiate('core.production-object', randomUUID());
    expect([theirs.status, theirs.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
    expect({ ...theirs.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
  });

  it('is refused over GraphQL as over REST', async () => {
    const response = await stack.graphql(
      `mutation ($entityId: ID!) { coreInitiateDocumentUpload(entityType: "core.production-object", entityId: $entityId, filename: "a.pdf") { document { id } } }`,
      { entityId: foreignObject },
      { authorization: `Bearer ${engineer.token}`, 'idempotency-key': randomUUID() },
    );
    expect(response.body.data?.coreInitiateDocumentUpload ?? null).toBeNull();
    expect(response.body.errors?.[0]?.extensions?.code).toBe('RECORD_NOT_FOUND');
  });

  it('is accepted for a record of the caller’s organization', async () => {
    const response = await initiate('core.production-object', ownObject);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.document.entityId).toBe(ownObject);
  });
});
