import { describe, expect, it } from 'vitest';
import { accessOfKind, describeAccess, requiredKeyScope } from '../../contracts/access.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import { SYSTEM_ROLE_DEFAULTS } from '../../subgraphs/operations/core/system-roles.js';
import { OPERATIONS_ACCESS } from '../fixtures/seed-access.js';

/**
 * The contracts and the seeded system roles against the matrix written from the seeds
 * (test/fixtures/seed-access.ts), without a server: a quick first signal before the
 * HTTP proof in test/e2e/seed-access.e2e.ts.
 */

const ROUTES = OPERATIONS_CONTRACTS.flatMap((contract) =>
  contract.rest.map((binding) => ({ contract, route: `${binding.method} ${binding.path}` })),
);

describe('operations contracts against the seed matrix', () => {
  it('declare for every route the roles, the super-admin rule and the API-key scope the matrix gives it', () => {
    const wrong: string[] = [];
    for (const { contract, route } of ROUTES) {
      const row = OPERATIONS_ACCESS[route];
      if (!row) {
        wrong.push(`${route}: no row in the matrix`);
        continue;
      }
      const access = accessOfKind(contract.access, 'operations');
      if (!access) {
        if (row.roles !== 'public') wrong.push(`${route}: ${describeAccess(contract.access)}, the matrix names roles`);
        continue;
      }
      const roles = access.roles === 'any' ? 'any' : [...access.roles].sort().join(', ');
      const expected = row.roles === 'any' || row.roles === 'public' ? row.roles : [...row.roles].sort().join(', ');
      if (roles !== expected) wrong.push(`${route}: roles ${roles}, the matrix ${expected}`);
      if (access.superAdmin !== row.superAdmin) wrong.push(`${route}: super-admin ${access.superAdmin}, the matrix ${row.superAdmin}`);
      const key = access.userOnly ? 'user' : requiredKeyScope(access, contract);
      if (key !== row.key) wrong.push(`${route}: key ${key}, the matrix ${row.key}`);
      if (typeof row.scope === 'object' && 'allObjects' in row.scope) {
        if ([...(access.allObjects ?? [])].sort().join() !== [...row.scope.allObjects].sort().join()) wrong.push(`${route}: allObjects`);
      }
      if (typeof row.scope === 'object' && 'exempt' in row.scope) {
        if ([...access.exempt].sort().join() !== [...row.scope.exempt].sort().join()) wrong.push(`${route}: exempt`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('seed every system role with exactly the operations the matrix allows it, and scope Foreman and Mechanic by object', () => {
    for (const role of SYSTEM_ROLE_DEFAULTS) {
      const allowed = new Set(
        ROUTES.filter(({ route }) => {
          const row = OPERATIONS_ACCESS[route];
          return row && Array.isArray(row.roles) && row.superAdmin !== 'only' && row.roles.includes(role.code);
        }).map(({ contract }) => contract.name),
      );
      expect([...role.permissions].sort(), role.code).toEqual([...allowed].sort());
      expect(role.scopeByObject, role.code).toBe(role.code === 'Foreman' || role.code === 'Mechanic');
    }
  });
});
