import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  type Call,
  commitImport,
  demoEmail,
  idempotencyKey,
  login,
  OPERATIONS_ENV,
  type Session,
  SUPER_ADMIN,
} from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/** Sign-in, organizations, idempotency, the trash, bulk import and the audit of every mutation, over HTTP. */

let stack: TestStack;
let root: Session;
let admin: Session;
/** Request ids of every mutation this file makes, to find their audit rows. */
const mutations: Array<{ what: string; requestId: string }> = [];

async function mutate(what: string, session: Session | null, method: string, path: string, body?: unknown, headers = {}): Promise<Call> {
  const requestId = randomUUID();
  const response = await call(stack, session, method, path, body, { 'x-request-id': requestId, ...headers });
  if (response.status < 300) mutations.push({ what, requestId });
  return response;
}

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  admin = await login(stack, demoEmail('Admin'));
});
afterAll(async () => {
  await stack?.stop();
});

describe('sign-in', () => {
  it('answers one message for an unknown e-mail and a wrong password alike', async () => {
    const unknown = await call(stack, null, 'POST', '/api/v1/iam/login', { email: 'nobody@example.org', password: 'whatever1' });
    const wrong = await call(stack, null, 'POST', '/api/v1/iam/login', { email: demoEmail('CEO'), password: 'wrong-password' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect({ ...unknown.body }).toEqual({ ...wrong.body });
    expect(unknown.body).toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401, type: 'about:blank', instance: '/api/v1/iam/login' });
  });

  it('issues a JWT verifiable with the published JWKS, with the user and their organization', async () => {
    const response = await call(stack, null, 'POST', '/api/v1/iam/login', { email: demoEmail('Engineer'), password: 'demo-password' });
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 15 * 24 * 3600, user: { roles: ['Engineer'] } });
    expect(response.body.organizations).toHaveLength(1);
    const jwks = await call(stack, null, 'GET', '/api/v1/iam/jwks');
    const { payload } = await jwtVerify(response.body.access_token, createLocalJWKSet(jwks.body));
    expect(payload.sub).toBe(response.body.user.id);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(15 * 24 * 3600);
  });

  it('rotates refresh tokens, revokes the whole sign-in on reuse of a spent one, and signs out', async () => {
    const first = await login(stack, demoEmail('Supply'));
    const rotated = await call(stack, null, 'POST', '/api/v1/iam/refresh', { refresh_token: first.refreshToken });
    expect(rotated.status).toBe(200);
    const fresh = { ...first, token: rotated.body.access_token as string };
    expect((await call(stack, fresh, 'GET', '/api/v1/iam/me')).status).toBe(200);
    const reused = await call(stack, null, 'POST', '/api/v1/iam/refresh', { refresh_token: first.refreshToken });
    expect(reused.body.code).toBe('REFRESH_TOKEN_REUSED');
    expect((await call(stack, fresh, 'GET', '/api/v1/iam/me')).status).toBe(401);
    expect((await call(stack, null, 'POST', '/api/v1/iam/refresh', { refresh_token: rotated.body.refresh_token })).status).toBe(401);
    const other = await login(stack, demoEmail('Supply'));
    expect((await mutate('logout', other, 'POST', '/api/v1/iam/logout')).status).toBe(200);
    expect((await call(stack, other, 'GET', '/api/v1/iam/me')).status).toBe(401);
  });

  it('lets an Admin create users in their own organization only, without secrets in the answer', async () => {
    const created = await mutate('create user', admin, 'POST', '/api/v1/iam/users', {
      email: 'new.engineer@example.org',
      password: 'long-enough-1',
      name: 'New Engineer',
      roles: ['Engineer'],
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([
      'active',
      'apiAccess',
      'bannedAt',
      'createdAt',
      'email',
      'emailVerified',
      'id',
      'name',
      'objectIds',
      'organizationId',
      'roles',
      'superAdmin',
    ]);
    expect(created.body.organizationId).toBe(admin.organizationId);
    const again = await call(stack, admin, 'POST', '/api/v1/iam/users', {
      email: 'NEW.engineer@example.org',
      password: 'long-enough-1',
      name: 'x',
      roles: ['CEO'],
    });
    expect(again.body.code).toBe('USER_EMAIL_TAKEN');
    expect((await login(stack, 'new.engineer@example.org', 'long-enough-1')).organizationId).toBe(admin.organizationId);
  });
});

describe('organizations', () => {
  it('creates one per slug (409 on collision), renames, deactivates and reactivates; the slug never changes', async () => {
    const created = await mutate(
      'create organization',
      root,
      'POST',
      '/api/v1/core/organizations',
      { slug: 'north-mining', name: 'North' },
      idempotencyKey(),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'north-mining', name: 'North', status: 'active' });
    const collision = await call(
      stack,
      root,
      'POST',
      '/api/v1/core/organizations',
      { slug: 'north-mining', name: 'Other' },
      idempotencyKey(),
    );
    expect(collision.status).toBe(409);
    expect(collision.body.code).toBe('ORGANIZATION_SLUG_TAKEN');
    // The slug is immutable: the update body has no such field, so sending one is refused, not ignored.
    const reslugged = await mutate('rename organization', root, 'PATCH', `/api/v1/core/organizations/${created.body.id}`, {
      name: 'North Mining',
      slug: 'x',
    });
    expect(reslugged).toMatchObject({ status: 422, body: { errors: [{ field: 'slug' }] } });
    const renamed = await mutate('rename organization', root, 'PATCH', `/api/v1/core/organizations/${created.body.id}`, {
      name: 'North Mining',
    });
    expect(renamed.body).toMatchObject({ name: 'North Mining', slug: 'north-mining' });
    expect((await mutate('deactivate', root, 'POST', `/api/v1/core/organizations/${created.body.id}/deactivate`)).body.status).toBe(
      'deactivated',
    );
    expect((await mutate('reactivate', root, 'POST', `/api/v1/core/organizations/${created.body.id}/reactivate`)).body.status).toBe(
      'active',
    );
    expect((await call(stack, root, 'GET', '/api/v1/core/organizations')).body.items.length).toBeGreaterThanOrEqual(2);
  });

  it('shows an Admin their own organization’s card and answers 404 for another’s', async () => {
    const own = await call(stack, admin, 'GET', `/api/v1/core/organizations/${admin.organizationId}`);
    expect(own.status).toBe(200);
    const list = await call(stack, root, 'GET', '/api/v1/core/organizations');
    const another = list.body.items.find((item: { id: string }) => item.id !== admin.organizationId);
    expect((await call(stack, admin, 'GET', `/api/v1/core/organizations/${another.id}`)).status).toBe(404);
  });
});

describe('Idempotency-Key', () => {
  it('is required where the operation needs it, and must be a UUID v4', async () => {
    const missing = await call(stack, root, 'POST', '/api/v1/core/organizations', { slug: 'no-key', name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const malformed = await call(
      stack,
      root,
      'POST',
      '/api/v1/core/organizations',
      { slug: 'no-key', name: 'x' },
      { 'Idempotency-Key': 'abc' },
    );
    expect(malformed.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('gives 50 concurrent requests with one key exactly one effect, identical replays or 409 while in flight', async () => {
    const key = { 'Idempotency-Key': randomUUID() };
    const body = { slug: 'concurrent-co', name: 'Concurrent' };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => call(stack, root, 'POST', '/api/v1/core/organizations', body, key)),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    expect(new Set(created.map((response) => JSON.stringify(response.body))).size).toBe(1);
    const replay = await call(stack, root, 'POST', '/api/v1/core/organizations', body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created[0]!.body);
    const list = await call(stack, root, 'GET', '/api/v1/core/organizations');
    expect(list.body.items.filter((item: { slug: string }) => item.slug === 'concurrent-co')).toHaveLength(1);
    // The one that did the work (the others replayed its stored answer) is the one with the audit row.
    const original = created.find((response) => response.headers.get('idempotent-replayed') !== 'true')!;
    expect(original).toBeDefined();
    mutations.push({ what: 'concurrent create', requestId: original.headers.get('x-request-id')! });
    const metrics = await (await stack.fetch('/metrics')).text();
    expect(metrics).toMatch(
      /qantara_operation_calls_total\{service="operations",operation="coreCreateOrganization",outcome="replayed"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /qantara_operation_calls_total\{service="operations",operation="coreCreateOrganization",outcome="refused"\} [1-9]/,
    );
  });

  it('refuses the same key with another payload with 422', async () => {
    const key = { 'Idempotency-Key': randomUUID() };
    expect((await call(stack, root, 'POST', '/api/v1/core/organizations', { slug: 'first-body', name: 'x' }, key)).status).toBe(201);
    const other = await call(stack, root, 'POST', '/api/v1/core/organizations', { slug: 'second-body', name: 'x' }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('reference books, import and the trash', () => {
  const rows = Array.from({ length: 10_000 }, (_, index) => ({ code: `POS-${index}`, name: `Position ${index}` }));

  it('previews 10,000 rows without writing anything, then commits them in one go', async () => {
    const before = await call(stack, admin, 'GET', '/api/v1/hr/positions');
    const preview = await mutate('preview', admin, 'POST', '/api/v1/hr/positions/import/preview', { rows, mode: 'merge' });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ module: 'hr', entity: 'Position', mode: 'merge', totalRows: 10_000 });
    expect(preview.body.diff).toMatchObject({ created: 10_000, updated: 0, errors: [] });
    expect((await call(stack, admin, 'GET', '/api/v1/hr/positions')).body).toHaveLength(before.body.length);
    const commit = await mutate(
      'commit',
      admin,
      'POST',
      `/api/v1/hr/positions/import/${preview.body.batchId}/commit`,
      {},
      idempotencyKey(),
    );
    expect(commit.status).toBe(200);
    expect(commit.body).toMatchObject({ batchId: preview.body.batchId, status: 'committed', applied: 10_000 });
    expect((await call(stack, admin, 'GET', '/api/v1/hr/positions')).body).toHaveLength(before.body.length + 10_000);
    const again = await commitImport(stack, admin, '/api/v1/hr/positions', preview.body.batchId);
    expect(again.body.code).toBe('IMPORT_BATCH_COMMITTED');
  });

  it('reports per-row errors and, in full_replace, the rows it would deactivate', async () => {
    const preview = await call(stack, admin, 'POST', '/api/v1/core/tmc-categories/import/preview', {
      rows: [
        { code: 'DRILL_TOOL', name: 'Буровой инструмент' },
        { code: 'NEW', name: 'Новое' },
        { name: 'no code' },
        { code: 'NEW', name: 'again' },
      ],
      mode: 'full_replace',
    });
    expect(preview.body.diff).toMatchObject({ created: 1, unchanged: 1, deactivated: 1 });
    expect(preview.body.diff.errors.map((error: { row: number }) => error.row)).toEqual([2, 3]);
    const commit = await commitImport(stack, admin, '/api/v1/core/tmc-categories', preview.body.batchId);
    expect(commit.body.code).toBe('IMPORT_BATCH_INVALID');
  });

  it('restores a deleted row, and refuses with 409 TRASH_RESTORE_UNIQUE_CONFLICT when its business key was taken meanwhile', async () => {
    const [first] = (await call(stack, admin, 'GET', '/api/v1/core/downtime-categories')).body;
    expect((await mutate('delete', admin, 'DELETE', `/api/v1/core/downtime-categories/${first.id}`)).status).toBe(200);
    const trash = await call(stack, admin, 'GET', '/api/v1/core/trash/downtime-categories');
    expect(trash.body).toMatchObject({ entity: 'DowntimeCategory', count: 1, rows: [{ id: first.id, code: first.code }] });
    expect((await call(stack, admin, 'GET', '/api/v1/core/trash')).body.entities).toContain('DowntimeCategory');
    const restored = await mutate('restore', admin, 'POST', `/api/v1/core/trash/downtime-categories/${first.id}/restore`);
    expect(restored.body).toEqual({ id: first.id });
    await mutate('delete again', admin, 'DELETE', `/api/v1/core/downtime-categories/${first.id}`);
    const preview = await call(stack, admin, 'POST', '/api/v1/core/downtime-categories/import/preview', {
      rows: [{ code: first.code, name: 'taken', group: 'g' }],
    });
    await mutate(
      'import over',
      admin,
      'POST',
      '/api/v1/core/downtime-categories/import/commit',
      { batchId: preview.body.batchId },
      idempotencyKey(),
    );
    const conflict = await call(stack, admin, 'POST', `/api/v1/core/trash/downtime-categories/${first.id}/restore`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('TRASH_RESTORE_UNIQUE_CONFLICT');
  });

  it('keeps the history of a record, newest first, paged by date-time', async () => {
    const [object] = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body;
    for (const name of ['A', 'B', 'C'])
      await mutate('rename object', admin, 'PATCH', `/api/v1/core/production-objects/${object.id}`, { name });
    const page = await call(stack, admin, 'GET', `/api/v1/core/audit?entityType=ProductionObject&entityId=${object.id}&limit=2`);
    expect(page.body.items.map((item: { changes: { name?: { after: string } } }) => item.changes.name?.after)).toEqual(['C', 'B']);
    expect(page.body.items[0]).toMatchObject({ action: 'update', operation: 'updateProductionObject', actorId: admin.userId });
    const next = await call(
      stack,
      admin,
      'GET',
      `/api/v1/core/audit?entityType=ProductionObject&entityId=${object.id}&limit=2&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.items[0].changes.name.after).toBe('A');
  });
});

describe('audit', () => {
  it('has a row for every mutation this file made, written with its request id', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const withoutAudit: string[] = [];
      for (const { what, requestId } of mutations.filter((mutation) => !['preview', 'logout'].includes(mutation.what))) {
        const { rows } = await db.query('select 1 from operations.audit_log where request_id = $1', [requestId]);
        if (rows.length === 0) withoutAudit.push(what);
      }
      expect(mutations.length).toBeGreaterThan(12);
      expect(withoutAudit).toEqual([]);
    } finally {
      await db.end();
    }
  });
});
