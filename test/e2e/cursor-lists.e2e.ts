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

  it('on the audit history: the cursor is the seed’s date-time of the last change, pages miss and repeat nothing, anything else is a 422', async () => {
    const [object] = (await call(stack, admin, 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string }>;
    for (const name of ['One', 'Two', 'Three']) {
      const renamed = await call(
        stack,
        admin,
        'PATCH',
        `/api/v1/core/production-objects/${object!.id}`,
        { name: `${name} ${object!.id.slice(0, 4)}` },
        idempotencyKey(),
      );
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    }
    const history = (query: string) =>
      call(stack, admin, 'GET', `/api/v1/core/audit?entityType=ProductionObject&entityId=${object!.id}${query}`);
    const all = ((await history('&limit=200')).body.items as Array<{ id: string }>).map((item) => item.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Call = await history(`&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      ids.push(...page.body.items.map((item: { id: string }) => item.id));
      if (page.body.nextCursor !== null) expect(page.body.nextCursor).toBe(page.body.items[0].at);
      cursor = page.body.nextCursor;
    } while (cursor !== null && ids.length < 100);
    expect(ids).toEqual(all);
    for (const bad of ['abc', randomUUID(), '2026-02-30T10:00:00.000000Z'])
      expectCursorProblem(await history(`&cursor=${encodeURIComponent(bad)}`));
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
