import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_ROLES, type ApiKeyScope, type OperationsRole } from '../../contracts/access.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import type { OperationContract } from '../../contracts/operation.js';
import { OPERATIONS_ACCESS, type ObjectScopeRule, type OperationsRouteAccess } from '../fixtures/seed-access.js';
import { eamForeignRecords } from '../support/foreign-records/eam.js';
import { hrForeignRecords } from '../support/foreign-records/hr.js';
import { prdForeignRecords } from '../support/foreign-records/prd.js';
import { scmForeignRecords } from '../support/foreign-records/scm.js';
import {
  call,
  demoEmail,
  fillPath,
  idempotencyKey,
  login,
  OPERATIONS_ENV,
  sampleBody,
  SUPER_ADMIN,
  type Call,
  type Session,
} from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The operations service against the access matrix written from the seeds
 * (test/fixtures/seed-access.ts), not from the contracts: every role the seed allows is
 * admitted, every other role and the super-admin where the seed says "X only" get 403,
 * and object-scoped roles do not reach another production object's rows.
 */

type Caller = OperationsRole | 'super-admin';
/** Seed 001 part B: the scopes of an `X-API-Key` (`*`, every one, aside). */
const KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'write', 'delete', 'admin', 'webhooks'];
const CALLERS: readonly Caller[] = [...OPERATIONS_ROLES, 'super-admin'];

let stack: TestStack;
const sessions = new Map<Caller, Session>();
let organizationId: string;
/** Records on production objects that the demo Foreman and Mechanic (limited to NORTH) do not hold. */
const elsewhere = new Map<string, string>();

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  for (const role of OPERATIONS_ROLES) sessions.set(role, await login(stack, demoEmail(role)));
  const root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  sessions.set('super-admin', root);
  organizationId = sessions.get('Admin')!.organizationId!;
  const context = { stack, root, organizationId, admin: sessions.get('Admin')! };
  for (const provide of [eamForeignRecords, hrForeignRecords, prdForeignRecords, scmForeignRecords]) {
    for (const [key, id] of Object.entries(await provide(context))) elsewhere.set(key, id);
  }
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const ROUTES = OPERATIONS_CONTRACTS.flatMap((contract) =>
  contract.rest.map((binding) => ({ contract, method: binding.method, path: binding.path, route: `${binding.method} ${binding.path}` })),
);

function allowed(access: OperationsRouteAccess, caller: Caller): boolean {
  if (access.roles === 'public') return true;
  if (caller === 'super-admin') return access.superAdmin !== 'never';
  if (access.superAdmin === 'only') return false;
  return access.roles === 'any' || access.roles.includes(caller);
}

/** Whether a role is limited to its production objects under a route's rule. */
function scoped(rule: ObjectScopeRule, role: OperationsRole): boolean {
  if (rule === 'none') return false;
  if (rule === 'objects') return role === 'Foreman' || role === 'Mechanic';
  if ('exempt' in rule) return (role === 'Foreman' || role === 'Mechanic') && !rule.exempt.includes(role);
  return !rule.allObjects.includes(role);
}

async function send(caller: Caller, method: string, path: string, body?: unknown, session = sessions.get(caller)!): Promise<Call> {
  const headers: Record<string, string> = { ...(method === 'GET' ? {} : idempotencyKey()) };
  if (caller === 'super-admin') headers['x-organization-id'] = organizationId;
  return call(stack, session, method, path, body, headers);
}

/** Path parameters that are not record ids get a value of their kind; a record id a fresh UUID (so nothing is changed). */
const pathFor = (path: string) =>
  fillPath(path, { entity: 'production-objects', queue: 'core-saga-steps', ip: '203.0.113.7', provider: 'none', token: 'none' });

describe('the access matrix from the seeds', () => {
  it('has a row for every operations route, and no row for a route that is not served', () => {
    const served = ROUTES.map(({ route }) => route);
    expect(served.filter((route) => !OPERATIONS_ACCESS[route])).toEqual([]);
    expect(Object.keys(OPERATIONS_ACCESS).filter((route) => !served.includes(route))).toEqual([]);
  });

  it('records for every row the seed’s words or the project’s choice', () => {
    const unexplained = Object.entries(OPERATIONS_ACCESS).filter(([, access]) => !access.seed && !access.chosen);
    expect(unexplained.map(([route]) => route)).toEqual([]);
  });

  it('serves the public routes without credentials and every other route only with them', () => {
    const mismatched = ROUTES.filter(
      ({ contract, route }) =>
        contract.access.every((access) => access.kind === 'public') !== (OPERATIONS_ACCESS[route]?.roles === 'public'),
    );
    expect(mismatched.map(({ route }) => route)).toEqual([]);
  });

  it('admits every role the seed allows on every route and refuses every other role, the super-admin included, with 403', async () => {
    const wrong: string[] = [];
    for (const { method, path, route } of ROUTES) {
      const access = OPERATIONS_ACCESS[route];
      if (!access || access.roles === 'public') continue;
      for (const caller of CALLERS) {
        // Signing out ends the session it is called with: a session of its own.
        const session =
          route === 'POST /api/v1/iam/logout'
            ? caller === 'super-admin'
              ? await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password)
              : await login(stack, demoEmail(caller))
            : undefined;
        const target = route === 'GET /api/v1/core/organizations/:id' ? path.replace(':id', organizationId) : pathFor(path);
        const response = await send(caller, method, target, method === 'GET' || method === 'DELETE' ? undefined : {}, session);
        const expected = allowed(access, caller);
        if (expected && (response.status === 401 || response.status === 403)) {
          wrong.push(`${route} as ${caller}: ${response.status} ${response.body?.code ?? ''}, the seed allows it`);
        }
        if (!expected && response.status !== 403) wrong.push(`${route} as ${caller}: ${response.status}, the seed refuses it`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('shows object-scoped roles none of another production object’s rows, by id or in a list', async () => {
    const wrong: string[] = [];
    let tried = 0;
    for (const { contract, method, path, route } of ROUTES) {
      const access = OPERATIONS_ACCESS[route];
      if (!access || access.roles === 'public' || access.scope === 'none') continue;
      const roles = OPERATIONS_ROLES.filter((role) => allowed(access, role) && scoped(access.scope, role));
      const prefix = [...elsewhere.keys()].filter((key) => path.startsWith(`${key}/:id`)).sort((a, b) => b.length - a.length)[0];
      if (prefix) {
        const target = fillPath(path, { id: elsewhere.get(prefix)!, entity: 'production-objects' });
        for (const role of roles) {
          const response = await send(role, method, target, bodyFor(contract, method));
          tried += 1;
          if (response.status !== 404) wrong.push(`${route} as ${role}: ${response.status}, another object's row`);
        }
      } else if (method === 'GET' && !path.includes(':')) {
        const theirs = new Set(elsewhere.values());
        // A list whose `limit` has no default takes it as required.
        const limit = contract.paging && contract.paging.limit.default === undefined ? `?limit=${contract.paging.limit.max}` : '';
        for (const role of roles) {
          const response = await send(role, method, `${path}${limit}`);
          tried += 1;
          const items = (Array.isArray(response.body) ? response.body : (response.body?.items ?? [])) as Array<{ id?: string }>;
          const leaked = items.filter((item) => item.id && theirs.has(item.id));
          if (response.status !== 200) wrong.push(`${route} as ${role}: ${response.status}`);
          else if (leaked.length > 0) wrong.push(`${route} as ${role}: lists ${leaked.length} row(s) of another object`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(50);
  }, 300_000);

  it('asks an X-API-Key for the scope seed 001 part B names on every route, and refuses keys where a user’s token is needed', async () => {
    const keys = new Map<string, string>();
    /** A key of the caller's holding exactly `scopes` (created once). */
    const keyOf = async (owner: Caller, scopes: readonly ApiKeyScope[]) => {
      const name = `${owner}:${scopes.join(',')}`;
      if (!keys.has(name)) {
        const headers: Record<string, string> = owner === 'super-admin' ? { 'x-organization-id': organizationId } : {};
        const created = await call(stack, sessions.get(owner)!, 'POST', '/api/v1/api-keys', { label: name, scopes }, headers);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        keys.set(name, created.body.key as string);
      }
      return keys.get(name)!;
    };
    const wrong: string[] = [];
    let tried = 0;
    for (const { method, path, route } of ROUTES) {
      const access = OPERATIONS_ACCESS[route];
      if (!access || access.roles === 'public' || access.key === 'none') continue;
      const owner: Caller =
        access.superAdmin === 'only'
          ? 'super-admin'
          : access.roles === 'any' || access.roles.includes('Admin')
            ? 'Admin'
            : (access.roles as readonly OperationsRole[])[0]!;
      const target = route === 'GET /api/v1/core/organizations/:id' ? path.replace(':id', organizationId) : pathFor(path);
      const send = async (key: string) =>
        call(stack, null, method, target, method === 'GET' || method === 'DELETE' ? undefined : {}, {
          'x-api-key': key,
          ...(method === 'GET' ? {} : idempotencyKey()),
        });
      tried += 1;
      if (access.key === 'user') {
        const refused = await send(await keyOf(owner, KEY_SCOPES));
        if (refused.status !== 403) wrong.push(`${route} with a key: ${refused.status}, the seed wants a user's token`);
        continue;
      }
      const scope = access.key;
      const without = await send(
        await keyOf(
          owner,
          KEY_SCOPES.filter((other) => other !== scope),
        ),
      );
      if (without.status !== 403 || without.body?.code !== 'API_KEY_SCOPE_MISSING') {
        wrong.push(`${route} with a key lacking ${scope}: ${without.status} ${without.body?.code ?? ''}`);
      }
      const only = await send(await keyOf(owner, [scope]));
      if (only.status === 401 || only.status === 403)
        wrong.push(`${route} with a key holding ${scope}: ${only.status} ${only.body?.code ?? ''}`);
    }
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(150);
  }, 300_000);

  it('lists brigades of every object to CEO, Engineer, Admin and OtibSpecialist, and to Supply only those of its objects', async () => {
    const brigade = elsewhere.get('/api/v1/hr/brigades')!;
    for (const role of ['CEO', 'Engineer', 'Admin', 'OtibSpecialist'] as const) {
      const list = await send(role, 'GET', '/api/v1/hr/brigades?limit=200');
      expect(
        list.body.items.map((item: { id: string }) => item.id),
        role,
      ).toContain(brigade);
      expect((await send(role, 'GET', `/api/v1/hr/brigades/${brigade}/roster`)).status, role).toBe(200);
    }
    for (const role of ['Supply', 'Foreman', 'Mechanic'] as const) {
      const list = await send(role, 'GET', '/api/v1/hr/brigades?limit=200');
      expect(list.status, role).toBe(200);
      expect(
        list.body.items.map((item: { id: string }) => item.id),
        role,
      ).not.toContain(brigade);
      expect((await send(role, 'GET', `/api/v1/hr/brigades/${brigade}`)).status, role).toBe(404);
      expect((await send(role, 'GET', `/api/v1/hr/brigades/${brigade}/roster`)).status, role).toBe(404);
    }
  });
});

/** A body that passes validation for a mutation (so the answer is about the row), none for a read or a delete. */
const bodyFor = (contract: OperationContract, method: string) =>
  method === 'GET' || method === 'DELETE' ? undefined : sampleBody(contract);
