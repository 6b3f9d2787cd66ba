import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOfKind, OPERATIONS_ROLES, type OperationsRole } from '../../contracts/access.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import {
  call,
  demoEmail,
  fillPath,
  idempotencyKey,
  login,
  OPERATIONS_ENV,
  otherOrganization,
  sample,
  sampleBody,
  type OtherOrganization,
  type Session,
} from '../support/operations.js';
import { referenceFields, type ReferenceField } from '../../contracts/references.js';
import { kindOf, unwrap } from '../../contracts/schema-shape.js';
import { REFERENCE_TABLES } from '../../subgraphs/operations/core/references.js';
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
let other: OtherOrganization;
/** Ids of records of the other organization, by the path prefix (or path parameter) that names them. */
const foreign = new Map<string, string>();

beforeAll(async () => {
  // The foreign webhook endpoint targets loopback.
  stack = await startStack({ ...OPERATIONS_ENV, WEBHOOK_ALLOW_PRIVATE: 'true' });
  for (const role of OPERATIONS_ROLES) sessions.set(role, await login(stack, demoEmail(role)));
  other = await otherOrganization(stack, 'other-co', 'Other Co');
  for (const provide of FOREIGN_RECORDS) {
    for (const [key, id] of Object.entries(await provide({ stack, ...other }))) foreign.set(key, id);
  }
});
afterAll(async () => {
  await stack?.stop();
});

/** Every operations route that names a record in its path (`:id`, `:batchId`, …). */
const routesWithIds = OPERATIONS_CONTRACTS.flatMap((contract) =>
  contract.rest.filter((binding) => /:(id|[a-z]+Id)\b/.test(binding.path)).map((binding) => ({ contract, binding })),
).filter(({ contract }) => accessOfKind(contract.access, 'operations')?.superAdmin !== 'only');

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
      const access = accessOfKind(contract.access, 'operations')!;
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

/** Body fields holding an id that is not a record of the caller's organization, and why. */
const NOT_REFERENCES: Readonly<Record<string, string>> = {
  'iamCreateUser.organizationId': 'names the organization itself; only the super-admin may name another',
  'iamCreateUser.objectIds[]':
    'objects of the organization the user is created in, which for the super-admin need not be the one it acts in; the service checks them there (422 naming objectIds, test/issues/new-user-objects-tenant.e2e.ts)',
  'iamVerifySecondFactor.challenge_id': 'a sign-in challenge, answered before any organization is known',
  'iamResendSecondFactor.challenge_id': 'a sign-in challenge, answered before any organization is known',
  'scmRecordFuelSupply.sagaId': 'the saga that records the supply',
  'prdAddShiftBlasting.permitId': 'a blasting permit of the HSE module, which this release does not hold',
  'prdUpdateShiftBlasting.permitId': 'a blasting permit of the HSE module, which this release does not hold',
};

/** Every id field of a schema, named as `referenceFields` names them (`lines[].itemId`). */
function idFields(schema: Parameters<typeof unwrap>[0], param: string): string[] {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'scalar') return kind.scalar === 'id' ? [param] : [];
  if (kind.kind === 'list') return idFields(kind.item, `${param}[]`);
  if (kind.kind === 'object') return Object.entries(kind.shape).flatMap(([key, field]) => idFields(field, `${param}.${key}`));
  return [];
}

/** Sets every value at a reference's path in a request body (creating an optional top-level field). */
function setAt(body: Record<string, unknown>, field: ReferenceField, value: () => string): void {
  const visit = (target: unknown, at: number): unknown => {
    const key = field.path[at]!;
    if (at === field.path.length - 1) {
      if (key === '[]') return Array.isArray(target) && target.length > 0 ? target.map(() => value()) : [value()];
      return { ...(target as object), [key]: value() };
    }
    if (key === '[]') return (Array.isArray(target) && target.length > 0 ? target : [{}]).map((item) => visit(item, at + 1));
    return {
      ...(target as object),
      [key]: visit((target as Record<string, unknown>)[key] ?? (field.path[at + 1] === '[]' ? [] : {}), at + 1),
    };
  };
  Object.assign(body, visit(body, 0));
}

const bodyReferences = OPERATIONS_CONTRACTS.filter(
  (contract) => contract.rest.length > 0 && accessOfKind(contract.access, 'operations')?.superAdmin !== 'only',
).flatMap((contract) =>
  referenceFields(contract)
    .filter((field) => field.location === 'body')
    .map((field) => ({ contract, field })),
);

describe('ids in a request body', () => {
  it('are all declared as references to a kind of record, or listed with the reason they name none', () => {
    const fields = OPERATIONS_CONTRACTS.flatMap((contract) =>
      Object.entries(contract.input.body ?? {}).flatMap(([name, schema]) => idFields(schema, name).map((param) => ({ contract, param }))),
    );
    const declared = new Set(
      OPERATIONS_CONTRACTS.flatMap((contract) => referenceFields(contract).map((field) => `${contract.name}.${field.param}`)),
    );
    const undeclared = fields
      .map(({ contract, param }) => `${contract.name}.${param}`)
      .filter((name) => !declared.has(name) && !NOT_REFERENCES[name]);
    expect(undeclared).toEqual([]);
    const named = new Set(fields.map(({ contract, param }) => `${contract.name}.${param}`));
    expect(Object.keys(NOT_REFERENCES).filter((name) => !named.has(name) || declared.has(name))).toEqual([]);
    expect(bodyReferences.length).toBeGreaterThan(40);
  });

  it('naming another organization’s record are refused exactly as a missing record, for every operation', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const firstRow = async (kind: keyof typeof REFERENCE_TABLES, organizationId: string) => {
      const { rows } = await db.query<{ id: string }>(
        `select id::text as id from operations.${REFERENCE_TABLES[kind].table} where organization_id = $1 order by id limit 1`,
        [organizationId],
      );
      return rows[0]?.id;
    };
    const demo = sessions.get('Admin')!.organizationId!;
    const failures: string[] = [];
    try {
      for (const { contract, field } of bodyReferences) {
        const binding = contract.rest[0]!;
        const access = accessOfKind(contract.access, 'operations')!;
        const role = access.roles === 'any' ? 'Admin' : (access.roles[0] ?? 'Admin');
        // A document's `entityId` names the record its `entityType` names.
        const kind = ('kind' in field.target ? field.target.kind : 'eam.asset') as keyof typeof REFERENCE_TABLES;
        const theirs = await firstRow(kind, other.organizationId);
        if (!theirs) {
          failures.push(`${contract.name}.${field.param}: the other organization has no ${kind}`);
          continue;
        }
        const body = sampleBody(contract);
        if ('kindFrom' in field.target) body[field.target.kindFrom] = kind;
        // The other references name the caller's own records where it has any, so the one tried is what fails.
        for (const sibling of referenceFields(contract)) {
          if (sibling === field || sibling.location !== 'body' || !('kind' in sibling.target)) continue;
          const own = await firstRow(sibling.target.kind as keyof typeof REFERENCE_TABLES, demo);
          if (own) setAt(body, sibling, () => own);
        }
        // The route's own record, where the caller's organization has one, so the body is what is judged.
        const prefix = /^(.*?)\/:id\b/.exec(binding.path)?.[1];
        const listed = prefix
          ? await call(stack, sessions.get(role)!, 'GET', fillPath(prefix, { entity: 'production-objects' }))
          : undefined;
        const rows = (Array.isArray(listed?.body) ? listed.body : listed?.body?.items) as Array<{ id: string }> | undefined;
        const path = fillPath(binding.path, { entity: 'production-objects', ...(rows?.[0] ? { id: rows[0].id } : {}) });
        const absent = randomUUID();
        const send = async (id: string) => {
          const request = structuredClone(body);
          setAt(request, field, () => id);
          const response = await call(stack, sessions.get(role)!, binding.method, path, request, idempotencyKey());
          const text = JSON.stringify({ ...response.body, instance: undefined }).replaceAll(id, '<id>');
          return { status: response.status, body: JSON.parse(text) as unknown };
        };
        const foreignAnswer = await send(theirs);
        const missingAnswer = await send(absent);
        const where = `${contract.name}.${field.param} as ${role}`;
        if (foreignAnswer.status < 400) failures.push(`${where}: accepted (${foreignAnswer.status})`);
        else if (JSON.stringify(foreignAnswer) !== JSON.stringify(missingAnswer)) {
          failures.push(`${where}: ${JSON.stringify(foreignAnswer)} ≠ ${JSON.stringify(missingAnswer)}`);
        }
      }
    } finally {
      await db.end();
    }
    expect(failures).toEqual([]);
  });
});

/** The table a list's id filter names, by the filter's name. */
const FILTER_TABLES: Readonly<Record<string, string>> = {
  objectId: 'production_object',
  productionObjectId: 'production_object',
  assetId: 'asset',
  tankId: 'fuel_tank',
  supplierId: 'supplier',
  warehouseId: 'warehouse',
  itemId: 'tmc_item',
  personnelId: 'personnel',
  positionId: 'position',
  sourceId: 'shift_report',
  shiftReportId: 'shift_report',
  entityId: 'production_object',
};

describe('ids in a list’s filters', () => {
  const filters = OPERATIONS_CONTRACTS.filter(
    (contract) => contract.rest[0]?.method === 'GET' && accessOfKind(contract.access, 'operations')?.superAdmin !== 'only',
  ).flatMap((contract) =>
    Object.entries(contract.input.query ?? {})
      .filter(([, schema]) => idFields(schema, '').length > 0)
      .map(([name]) => ({ contract, name })),
  );

  it('of another organization’s record answer exactly as a missing record (nothing of it shows)', async () => {
    expect(filters.length).toBeGreaterThan(20);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const failures: string[] = [];
    try {
      for (const { contract, name } of filters) {
        const table = FILTER_TABLES[name];
        if (!table) {
          failures.push(`${contract.name}?${name}: no table known for the filter`);
          continue;
        }
        const { rows } = await db.query<{ id: string }>(
          `select id::text as id from operations.${table} where organization_id = $1 limit 1`,
          [other.organizationId],
        );
        const theirs = rows[0]?.id;
        if (!theirs) {
          failures.push(`${contract.name}?${name}: the other organization has no ${table}`);
          continue;
        }
        const binding = contract.rest[0]!;
        const access = accessOfKind(contract.access, 'operations')!;
        const role = access.roles === 'any' ? 'Admin' : (access.roles[0] ?? 'Admin');
        // Required parameters besides the filter (an audit history's `entityType`).
        const required = Object.fromEntries(
          Object.entries(contract.input.query ?? {})
            .filter(([field]) => field !== name)
            .map(([field, schema]) => [field, field === 'entityType' ? 'ProductionObject' : sample(schema)] as const)
            .filter(([, value]) => value !== undefined),
        );
        const send = async (id: string) => {
          const query = new URLSearchParams({
            ...Object.fromEntries(Object.entries(required).map(([k, v]) => [k, String(v)])),
            [name]: id,
          });
          const response = await call(
            stack,
            sessions.get(role)!,
            'GET',
            `${fillPath(binding.path, { entity: 'production-objects' })}?${query}`,
          );
          const text = JSON.stringify({ ...response.body, instance: undefined }).replaceAll(id, '<id>');
          return { status: response.status, body: JSON.parse(text) as unknown };
        };
        const foreignAnswer = await send(theirs);
        const missingAnswer = await send(randomUUID());
        if (JSON.stringify(foreignAnswer) !== JSON.stringify(missingAnswer)) {
          failures.push(`${contract.name}?${name} as ${role}: ${JSON.stringify(foreignAnswer)} ≠ ${JSON.stringify(missingAnswer)}`);
        }
      }
    } finally {
      await db.end();
    }
    expect(failures).toEqual([]);
  });
});

describe('roles', () => {
  const restricted = OPERATIONS_CONTRACTS.filter(
    (contract) => accessOfKind(contract.access, 'operations') !== undefined && contract.rest.length > 0,
  ).flatMap((contract) => {
    const access = accessOfKind(contract.access, 'operations')!;
    const allowed = access.superAdmin === 'only' ? [] : access.roles === 'any' ? [...OPERATIONS_ROLES] : access.roles;
    return OPERATIONS_ROLES.filter((role) => !allowed.includes(role)).map((role) => ({ contract, role }));
  });

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
  }, 180_000);
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
