import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, SUPER_ADMIN, type Call, type Session } from '../support/operations.js';
import { call as researchCall, fundedWorkspace, RESEARCH_ADMIN_TOKEN } from '../support/research.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The one cursor list over HTTP (docs/adr/0044): a cursor that is not one the list handed
 * out is a 422 in the service's error shape on lists of operations and research, and the
 * lists that gained paging page through every item once.
 */

let stack: TestStack;
let root: Session;
let admin: Session;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV, ADMIN_TOKEN: RESEARCH_ADMIN_TOKEN, DEMO_RESEARCH: 'false' });
  root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  admin = await login(stack, demoEmail('Admin'));
  workspace = await fundedWorkspace(stack, 'cursor-lists', 10, 'test');
});
afterAll(async () => {
  await stack?.stop();
});

/** Expects the operations 422 Problem naming `cursor`. */
function expectCursorProblem(answer: Call) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(422);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  expect(answer.body).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
  expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain('cursor');
}

/** Every item of a list, page by page, and the pages' sizes. */
async function pageThrough(session: Session, path: string, limit: number) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const page: Call = await call(stack, session, 'GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    sizes.push(page.body.items.length);
    ids.push(...page.body.items.map((item: { id?: string; client_id?: string }) => item.id ?? item.client_id));
    cursor = page.body.nextCursor;
  } while (cursor !== null && sizes.length < 100);
  return { ids, sizes };
}

describe('operations: a cursor no page handed out', () => {
  const LISTS = [
    '/api/v1/iam/users',
    '/api/v1/api-keys',
    '/api/v1/iam/notifications',
    '/api/v1/iam/login-history',
    '/api/v1/scm/suppliers',
    '/api/v1/webhooks/endpoints',
    '/api/v1/hr/personnel',
  ];

  it.each(LISTS)('on %s: malformed, an unknown id, and an item of another list are each a 422 Problem naming cursor', async (path) => {
    // An item of another list: the organization's id, or the user's own.
    const anotherList = path === '/api/v1/iam/users' ? admin.organizationId! : admin.userId;
    for (const cursor of ['abc', randomUUID(), anotherList]) {
      expectCursorProblem(await call(stack, admin, 'GET', `${path}?cursor=${encodeURIComponent(cursor)}`));
    }
  });

  it('on the audit history: a change of another record is no cursor of this record’s history', async () => {
    const [first, second] = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string }>;
    for (const object of [first!, second!]) {
      for (const name of ['One', 'Two']) {
        const renamed = await call(
          stack,
          admin,
          'PATCH',
          `/api/v1/core/production-objects/${object.id}`,
          { name: `${name} ${object.id.slice(0, 4)}` },
          idempotencyKey(),
        );
        expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      }
    }
    const history = (id: string, query = '') =>
      call(stack, admin, 'GET', `/api/v1/core/audit?entityType=ProductionObject&entityId=${id}&limit=1${query}`);
    const page = await history(first!.id);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    expect((await history(first!.id, `&cursor=${page.body.nextCursor}`)).status).toBe(200);
    expectCursorProblem(await history(second!.id, `&cursor=${page.body.nextCursor}`));
    expectCursorProblem(await history(first!.id, `&cursor=${encodeURIComponent(page.body.items[0].at)}`));
  });
});

describe('research: a cursor no page handed out', () => {
  it.each(['abc', randomUUID(), 'thread_AAAAAAAAAAAAAAAA', 'thread_unknown'])(
    'on /v1/chat/threads (%s) is a 422 in the research error body naming cursor',
    async (cursor) => {
      const listed = await researchCall(stack, workspace.key, 'GET', `/v1/chat/threads?cursor=${encodeURIComponent(cursor)}`);
      expect(listed.status, listed.text).toBe(422);
      expect(listed.body.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    },
  );
});

describe('lists that gained cursor pages', () => {
  it('organizations page oldest first through every organization once, the last page with a null cursor', async () => {
    for (let n = 0; n < 3; n += 1) {
      const created = await call(
        stack,
        root,
        'POST',
        '/api/v1/core/organizations',
        { slug: `paged-${n}-${Date.now()}`, name: `Paged ${n}` },
        idempotencyKey(),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const whole = await call(stack, root, 'GET', '/api/v1/core/organizations?limit=200');
    expect(whole.body.nextCursor).toBeNull();
    const all = whole.body.items.map((item: { id: string }) => item.id) as string[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    const { ids, sizes } = await pageThrough(root, '/api/v1/core/organizations', 2);
    expect(ids).toEqual(all);
    expect(sizes.slice(0, -1).every((size) => size === 2)).toBe(true);
    for (const query of ['limit=0', 'limit=201', 'cursor=abc']) {
      expect((await call(stack, root, 'GET', `/api/v1/core/organizations?${query}`)).status, query).toBe(422);
    }
  });

  it('active sessions page most recently refreshed first through every session once', async () => {
    const sessions = [];
    for (let n = 0; n < 3; n += 1) sessions.push(await login(stack, demoEmail('Engineer')));
    const latest = sessions.at(-1)!;
    const whole = await call(stack, latest, 'GET', '/api/v1/iam/sessions?limit=200');
    const all = whole.body.items.map((item: { id: string }) => item.id) as string[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(whole.body.items[0].current).toBe(true);
    const { ids, sizes } = await pageThrough(latest, '/api/v1/iam/sessions', 1);
    expect(ids).toEqual(all);
    expect(sizes.every((size) => size === 1)).toBe(true);
    expectCursorProblem(await call(stack, latest, 'GET', `/api/v1/iam/sessions?cursor=${latest.userId}`));
  });

  it('OpenID clients page oldest first through every client once', async () => {
    for (let n = 0; n < 3; n += 1) {
      const created = await call(stack, root, 'POST', '/api/v1/iam/oidc-clients', {
        name: `Paged ${n}`,
        redirect_uris: ['https://paged.example.org/callback'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const whole = await call(stack, root, 'GET', '/api/v1/iam/oidc-clients?limit=200');
    const all = whole.body.items.map((item: { client_id: string }) => item.client_id) as string[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const { ids } = await pageThrough(root, '/api/v1/iam/oidc-clients', 2);
    expect(ids).toEqual(all);
    expectCursorProblem(await call(stack, root, 'GET', `/api/v1/iam/oidc-clients?cursor=${root.userId}`));
  });
});
