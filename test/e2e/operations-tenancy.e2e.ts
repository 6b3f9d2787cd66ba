import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_ROLES, type OperationsAccess, type OperationsRole } from '../../contracts/access.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import {
  call,
  demoEmail,
  fillPath,
  idempotencyKey,
  login,
  OPERATIONS_ENV,
  sample,
  sampleBody,
  SUPER_ADMIN,
  type Session,
} from '../support/operations.js';
import { FOREIGN_RECORDS } from '../support/foreign-records/index.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Tenant isolation and roles, generated from the contracts: every route with an id,
 * called with a record of another organization, answers exactly as for a missing id;
 * every route a role may not call answers 403; the application role sees no tenant
 * rows without the tenant setting.
 */

let stack: TestStack;
const sessions = new Map<OperationsRole, Session>();
let other: { organizationId: string; admin: Session };
/** Ids of records of the other organization, by the path prefix (or path parameter) that names them. */
const foreign = new Map<string, string>();

async function otherOrganization(root: Session) {
  const created = await call(stack, root, 'POST', '/api/v1/core/organizations', { slug: 'other-co', name: 'Other Co' }, idempotencyKey());
  expect(created.status).toBe(201);
  const email = 'admin@other.example.org';
  const user = await call(stack, root, 'POST', '/api/v1/iam/users', {
    email,
    password: 'other-password',
    name: 'Other Admin',
    roles: ['Admin'],
    organizationId: created.body.id,
  });
  expect(user.status).toBe(201);
  return { organizationId: created.body.id as string, admin: await login(stack, email, 'other-password') };
}

beforeAll(async () => {
  // The foreign webhook endpoint targets loopback.
  stack = await startStack({ ...OPERATIONS_ENV, WEBHOOK_ALLOW_PRIVATE: 'true' });
  for (const role of OPERATIONS_ROLES) sessions.set(role, await login(stack, demoEmail(role)));
  const root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  other = await otherOrganization(root);
  for (const provide of FOREIGN_RECORDS) {
    for (const [key, id] of Object.entries(await provide({ stack, root, ...other }))) foreign.set(key, id);
  }
});
afterAll(async () => {
  await stack?.stop();
});

/** Every operations route that names a record in its path (`:id`, `:batchId`, …). */
const routesWithIds = OPERATIONS_CONTRACTS.flatMap((contract) =>
  contract.rest.filter((binding) => /:(id|[a-z]+Id)\b/.test(binding.path)).map((binding) => ({ contract, binding })),
).filter(({ contract }) => (contract.access as OperationsAccess).superAdmin !== 'only');

/** Path parameters that name no record (e.g. a queue): the same value for their record and a missing one. */
const isRecordParameter = (name: string) => name === 'id' || /[a-z]Id$/.test(name);

function foreignFor(path: string): Record<string, string> | undefined {
  const parameters = [...path.matchAll(/:([A-Za-z]+)\b/g)].map((match) => match[1]!).filter((name) => foreign.has(name));
  if (parameters.some(isRecordParameter)) return Object.fromEntries(parameters.map((name) => [name, foreign.get(name)!]));
  const prefix = [...foreign.keys()].filter((key) => path.startsWith(`${key}/`)).sort((a, b) => b.length - a.length)[0];
  if (!prefix) return undefined;
  return { id: foreign.get(prefix)!, entity: 'production-objects' };
}

describe('another organization’s records', () => {
  it('covers every route with an id', () => {
    const uncovered = routesWithIds
      .filter(({ binding }) => !foreignFor(binding.path))
      .map(({ binding }) => `${binding.method} ${binding.path}`);
    expect(uncovered).toEqual([]);
    expect(routesWithIds.length).toBeGreaterThan(20);
  });

  it('answer every route with an id exactly as a missing id does', async () => {
    for (const { contract, binding } of routesWithIds) {
      const access = contract.access as OperationsAccess;
      const role = access.roles === 'any' ? 'Admin' : (access.roles[0] ?? 'Admin');
      const session = sessions.get(role)!;
      const values = foreignFor(binding.path)!;
      const send = (path: string) =>
        call(stack, session, binding.method, path, binding.method === 'GET' ? undefined : sampleBody(contract), idempotencyKey());
      const theirs = await send(fillPath(binding.path, values));
      const fixed = Object.fromEntries(Object.entries(values).filter(([name]) => !isRecordParameter(name)));
      // A missing record: a fresh UUID, or the documented example of an id of another form (a job id).
      const absent = Object.fromEntries(
        Object.entries(contract.input.path ?? {})
          .filter(([name]) => isRecordParameter(name) && !(sample(contract.input.path![name]!) as string).startsWith('xxx'))
          .map(([name, schema]) => [name, sample(schema) as string]),
      );
      const missing = await send(fillPath(binding.path, { entity: values.entity!, ...fixed, ...absent }));
      const where = `${binding.method} ${binding.path} as ${role}`;
      expect(theirs.status, where).toBe(404);
      expect({ ...theirs.body, instance: undefined }, where).toEqual({ ...missing.body, instance: undefined });
    }
  });
});

describe('roles', () => {
  const restricted = OPERATIONS_CONTRACTS.filter((contract) => contract.access.kind === 'operations' && contract.rest.length > 0).flatMap(
    (contract) => {
      const access = contract.access as OperationsAccess;
      const allowed = access.superAdmin === 'only' ? [] : access.roles === 'any' ? [...OPERATIONS_ROLES] : access.roles;
      return OPERATIONS_ROLES.filter((role) => !allowed.includes(role)).map((role) => ({ contract, role }));
    },
  );

  it('answers 403 ROLE_FORBIDDEN to every role a contract does not list, on every route', async () => {
    expect(restricted.length).toBeGreaterThan(50);
    for (const { contract, role } of restricted) {
      const binding = contract.rest[0]!;
      const response = await call(
        stack,
        sessions.get(role)!,
        binding.method,
        fillPath(binding.path, { entity: 'production-objects' }),
        binding.method === 'GET' ? undefined : sampleBody(contract),
        idempotencyKey(),
      );
      expect(response.status, `${contract.name} as ${role}`).toBe(403);
      expect(response.body.code).toBe('ROLE_FORBIDDEN');
    }
  });
});

describe('row-level security', () => {
  it('shows the application role no tenant row without the tenant setting, and only its tenant’s with it', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const demo = sessions.get('Admin')!.organizationId!;
      const count = async (settings: string) => {
        await db.query('begin');
        try {
          await db.query(`set local role operations_app; ${settings}`);
          const { rows } = await db.query<{ organizations: string[] }>(
            'select coalesce(array_agg(distinct organization_id::text), $1) as organizations from operations.production_object',
            ['{}'],
          );
          return rows[0]!.organizations;
        } finally {
          await db.query('rollback');
        }
      };
      expect(await count('')).toEqual([]);
      expect(await count(`select set_config('app.organization_id', '${demo}', true)`)).toEqual([demo]);
      expect(await count(`select set_config('app.organization_id', '${other.organizationId}', true)`)).toEqual([other.organizationId]);
    } finally {
      await db.end();
    }
  });

  it('limits a Foreman to their production objects', async () => {
    const admin = await call(stack, sessions.get('Admin')!, 'GET', '/api/v1/core/production-objects');
    const foreman = await call(stack, sessions.get('Foreman')!, 'GET', '/api/v1/core/production-objects');
    expect(admin.body.length).toBeGreaterThan(1);
    expect(foreman.body.map((row: { code: string }) => row.code)).toEqual(['NORTH']);
    const south = admin.body.find((row: { code: string }) => row.code === 'SOUTH');
    const denied = await call(stack, sessions.get('Foreman')!, 'GET', `/api/v1/core/production-objects/${south.id}`);
    expect(denied.status).toBe(404);
  });
});
