import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_ROLES, type OperationsRole } from '../../contracts/access.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import { backfillSystemRoles } from '../../subgraphs/operations/migrations/Migration20261127010000_system_role_permissions.js';
import { OPERATIONS_ACCESS } from '../fixtures/seed-access.js';
import {
  addMember,
  call,
  createOrganization,
  demoEmail,
  idempotencyKey,
  login,
  OPERATIONS_ENV,
  SUPER_ADMIN,
  type Session,
} from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The system-roles book drives access: a role's permissions and `scopeByObject` decide
 * what its holders may call and see, on their next request; `version` counts the changes;
 * a new organization starts with the seed's roles; an Admin assigns roles and objects.
 */

interface SystemRole {
  id: string;
  code: OperationsRole;
  permissions: string[];
  scopeByObject: boolean;
  version: number;
}

let stack: TestStack;
const sessions = new Map<OperationsRole, Session>();
let root: Session;
let objects: { north: string; south: string };

const as = (role: OperationsRole) => sessions.get(role)!;

async function roles(session: Session, organizationId?: string): Promise<SystemRole[]> {
  const response = await call(stack, session, 'GET', '/api/v1/hr/system-roles', undefined, {
    ...(organizationId ? { 'x-organization-id': organizationId } : {}),
  });
  expect(response.status).toBe(200);
  return response.body;
}

const role = async (code: OperationsRole) => (await roles(as('Admin'))).find((entry) => entry.code === code)!;

async function updateRole(id: string, patch: Partial<SystemRole>) {
  return call(stack, as('Admin'), 'PATCH', `/api/v1/hr/system-roles/${id}`, patch, idempotencyKey());
}

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  for (const code of OPERATIONS_ROLES) sessions.set(code, await login(stack, demoEmail(code)));
  root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  const list = (await call(stack, as('Admin'), 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string; code: string }>;
  objects = { north: list.find((row) => row.code === 'NORTH')!.id, south: list.find((row) => row.code === 'SOUTH')!.id };
});
afterAll(async () => {
  await stack?.stop();
});

/** The operations each role may call according to the seed matrix (test/fixtures/seed-access.ts), by contract name. */
function matrixPermissions(code: OperationsRole): string[] {
  const names = new Set<string>();
  for (const contract of OPERATIONS_CONTRACTS) {
    for (const binding of contract.rest) {
      const access = OPERATIONS_ACCESS[`${binding.method} ${binding.path}`];
      if (access && Array.isArray(access.roles) && access.superAdmin !== 'only' && access.roles.includes(code)) names.add(contract.name);
    }
  }
  return [...names].sort();
}

describe('system roles', () => {
  it('are seeded into a new organization at its creation with exactly the permissions the seed matrix gives each role', async () => {
    const created = await call(stack, root, 'POST', '/api/v1/core/organizations', { slug: 'roles-co', name: 'Roles Co' }, idempotencyKey());
    expect(created.status).toBe(201);
    const seeded = await roles(root, created.body.id);
    expect(seeded.map((entry) => entry.code).sort()).toEqual([...OPERATIONS_ROLES].sort());
    for (const entry of seeded) {
      expect([...entry.permissions].sort(), entry.code).toEqual(matrixPermissions(entry.code));
      expect(entry.scopeByObject, entry.code).toBe(entry.code === 'Foreman' || entry.code === 'Mechanic');
      expect(entry.version).toBe(1);
    }
    // The demo organization holds the same.
    for (const entry of await roles(as('Admin'))) expect([...entry.permissions].sort(), entry.code).toEqual(matrixPermissions(entry.code));
  });

  it('gives an organization that existed before system roles drove access the seed’s roles, keeping roles an Admin changed (migration)', async () => {
    const organizationId = await createOrganization(stack, root, 'older-co', 'Older Co');
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      // As such an organization was: no Foreman role, the other roles without permissions, the Admin role changed since.
      await db.query(`delete from operations.system_role where organization_id = $1 and code = 'Foreman'`, [organizationId]);
      await db.query(`update operations.system_role set permissions = '{}' where organization_id = $1`, [organizationId]);
      await db.query(`update operations.system_role set version = 2 where organization_id = $1 and code = 'Admin'`, [organizationId]);
      await db.query(backfillSystemRoles());
    } finally {
      await db.end();
    }
    const backfilled = await roles(root, organizationId);
    expect(backfilled.map((entry) => entry.code).sort()).toEqual([...OPERATIONS_ROLES].sort());
    for (const entry of backfilled) {
      expect([...entry.permissions].sort(), entry.code).toEqual(entry.code === 'Admin' ? [] : matrixPermissions(entry.code));
    }
  });

  it('refuses a role’s next call with 403 once the permission is removed, admits it again once restored, and counts each change in version', async () => {
    const supply = await role('Supply');
    expect(supply.permissions).toContain('scmListSuppliers');
    expect((await call(stack, as('Supply'), 'GET', '/api/v1/scm/suppliers')).status).toBe(200);

    const removed = await updateRole(supply.id, { permissions: supply.permissions.filter((name) => name !== 'scmListSuppliers') });
    expect(removed.status).toBe(200);
    expect(removed.body.version).toBe(supply.version + 1);
    const refused = await call(stack, as('Supply'), 'GET', '/api/v1/scm/suppliers');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ROLE_FORBIDDEN');
    // Other roles holding the permission are untouched.
    expect((await call(stack, as('CEO'), 'GET', '/api/v1/scm/suppliers')).status).toBe(200);

    const restored = await updateRole(supply.id, { permissions: supply.permissions });
    expect(restored.body.version).toBe(supply.version + 2);
    expect((await call(stack, as('Supply'), 'GET', '/api/v1/scm/suppliers')).status).toBe(200);
    expect((await role('Supply')).version).toBe(supply.version + 2);
  });

  it('applies a change another process stored (a new version in the database) on the next call', async () => {
    const supply = await role('Supply');
    expect((await call(stack, as('Supply'), 'GET', '/api/v1/scm/suppliers')).status).toBe(200);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      // Written beside this server, as another instance of it would: the cached roles are stale.
      await db.query(
        `update operations.system_role set permissions = array_remove(permissions, 'scmListSuppliers'), version = version + 1 where id = $1`,
        [supply.id],
      );
      expect((await call(stack, as('Supply'), 'GET', '/api/v1/scm/suppliers')).status).toBe(403);
      await db.query(`update operations.system_role set permissions = $2, version = version + 1 where id = $1`, [
        supply.id,
        supply.permissions,
      ]);
      expect((await call(stack, as('Supply'), 'GET', '/api/v1/scm/suppliers')).status).toBe(200);
    } finally {
      await db.end();
    }
  });

  it('grants nothing once a role is deleted and grants again once it is restored from the trash, counting both in version', async () => {
    const otib = await role('OtibSpecialist');
    expect((await call(stack, as('OtibSpecialist'), 'GET', '/api/v1/hr/personnel')).status).toBe(200);
    const deleted = await call(stack, as('Admin'), 'DELETE', `/api/v1/hr/system-roles/${otib.id}`);
    expect(deleted.status).toBe(200);
    expect((await call(stack, as('OtibSpecialist'), 'GET', '/api/v1/hr/personnel')).status).toBe(403);
    const restored = await call(stack, as('Admin'), 'POST', `/api/v1/core/trash/system-roles/${otib.id}/restore`, {}, idempotencyKey());
    expect(restored.status).toBe(200);
    expect((await call(stack, as('OtibSpecialist'), 'GET', '/api/v1/hr/personnel')).status).toBe(200);
    expect((await role('OtibSpecialist')).version).toBe(otib.version + 2);
  });

  it('grants a role a new operation when the permission is added', async () => {
    const otib = await role('OtibSpecialist');
    expect((await call(stack, as('OtibSpecialist'), 'GET', '/api/v1/scm/suppliers')).status).toBe(403);
    await updateRole(otib.id, { permissions: [...otib.permissions, 'scmListSuppliers'] });
    expect((await call(stack, as('OtibSpecialist'), 'GET', '/api/v1/scm/suppliers')).status).toBe(200);
    await updateRole(otib.id, { permissions: otib.permissions });
    expect((await call(stack, as('OtibSpecialist'), 'GET', '/api/v1/scm/suppliers')).status).toBe(403);
  });

  it('limits a role to its holders’ production objects when scopeByObject is set, and lifts it when cleared', async () => {
    const engineer = await role('Engineer');
    const codes = async () => {
      const list = await call(stack, as('Engineer'), 'GET', '/api/v1/core/production-objects');
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      return (list.body as Array<{ code: string }>).map((row) => row.code);
    };
    expect(await codes()).toEqual(expect.arrayContaining(['NORTH', 'SOUTH']));
    const scoped = await updateRole(engineer.id, { scopeByObject: true });
    expect(scoped.body).toMatchObject({ scopeByObject: true, version: engineer.version + 1 });
    // The demo Engineer holds no production object.
    expect(await codes()).toEqual([]);
    await updateRole(engineer.id, { scopeByObject: false });
    expect(await codes()).toEqual(expect.arrayContaining(['NORTH', 'SOUTH']));
  });

  it('refuses permissions that name no operation gated by roles (422)', async () => {
    const supply = await role('Supply');
    const refused = await updateRole(supply.id, { permissions: [...supply.permissions, 'scmListSupplierz'] });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('scmListSupplierz');
    expect((await role('Supply')).version).toBe(supply.version);
  });
});

describe('PATCH /api/v1/iam/users/:id', () => {
  async function newUser(roles: OperationsRole[]): Promise<Session & { email: string }> {
    const email = `user-${randomUUID().slice(0, 8)}@demo.example.org`;
    const created = await call(stack, as('Admin'), 'POST', '/api/v1/iam/users', { email, password: 'user-password', name: 'New', roles });
    expect(created.status).toBe(201);
    return { ...(await login(stack, email, 'user-password')), email };
  }

  it('gives a user a production object: their next request with the same token sees its rows', async () => {
    const foreman = await newUser(['Foreman']);
    const codes = async () =>
      ((await call(stack, foreman, 'GET', '/api/v1/core/production-objects')).body as Array<{ code: string }>).map((row) => row.code);
    expect(await codes()).toEqual([]);
    const updated = await call(stack, as('Admin'), 'PATCH', `/api/v1/iam/users/${foreman.userId}`, { objectIds: [objects.south] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: foreman.userId, roles: ['Foreman'], objectIds: [objects.south] });
    expect(await codes()).toEqual(['SOUTH']);
  });

  it('changes a user’s roles: their next request is judged by the new ones', async () => {
    const user = await newUser(['Supply']);
    expect((await call(stack, user, 'GET', '/api/v1/prd/shift-reports')).status).toBe(403);
    const updated = await call(stack, as('Admin'), 'PATCH', `/api/v1/iam/users/${user.userId}`, { roles: ['Engineer'] });
    expect(updated.body.roles).toEqual(['Engineer']);
    expect((await call(stack, user, 'GET', '/api/v1/prd/shift-reports')).status).toBe(200);
    // Supply's operations are no longer the user's.
    expect((await call(stack, user, 'POST', '/api/v1/scm/suppliers', {}, idempotencyKey())).status).toBe(403);
  });

  it('refuses objects that are not production objects of the organization (422) and users of another organization (404)', async () => {
    const user = await newUser(['Mechanic']);
    const missing = randomUUID();
    const refused = await call(stack, as('Admin'), 'PATCH', `/api/v1/iam/users/${user.userId}`, { objectIds: [objects.north, missing] });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain(missing);
    const elsewhere = await createOrganization(stack, root, 'elsewhere-co', 'Elsewhere');
    const stranger = await addMember(stack, root, elsewhere, {
      email: 'stranger@elsewhere.example.org',
      password: 'user-password',
      name: 'Stranger',
      roles: ['Foreman'],
    });
    const foreign = await call(stack, as('Admin'), 'PATCH', `/api/v1/iam/users/${stranger}`, { roles: ['Admin'] });
    expect(foreign.status).toBe(404);
    const unknown = await call(stack, as('Admin'), 'PATCH', `/api/v1/iam/users/${randomUUID()}`, { roles: ['Admin'] });
    expect({ ...foreign.body, instance: undefined }).toEqual({ ...unknown.body, instance: undefined });
    expect((await call(stack, as('Engineer'), 'PATCH', `/api/v1/iam/users/${user.userId}`, { roles: ['Admin'] })).status).toBe(403);
  });
});
