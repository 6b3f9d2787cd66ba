import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import { AUDIT_ENTITY_TYPES } from '../../contracts/operations/records.contract.js';
import { Actors } from '../support/actors.js';
import { AssetBuilder } from '../support/eam.js';
import { call, fillPath, sampleBody } from '../support/operations.js';
import { RESEARCH_ADMIN_TOKEN } from '../support/research.js';

/**
 * The OpenAPI documents as a generated client reads them: every error a route answers
 * is declared, unknown body fields are refused, Problems have a stable title, `/metrics`
 * and the audit's entity types are described. Over HTTP, on one stack of all services.
 */

let actors: Actors;
let assets: AssetBuilder;

type OpenApi = { paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, unknown> } };

async function openapi(path: string): Promise<OpenApi> {
  return (await (await actors.stack.fetch(path)).json()) as OpenApi;
}

const newAsset = async (): Promise<string> => (await assets.create()).id;

beforeAll(async () => {
  actors = await Actors.start({ ADMIN_TOKEN: RESEARCH_ADMIN_TOKEN });
  assets = new AssetBuilder(actors, {
    prefix: 'OA',
    first: 1001,
    assetClass: { code: 'OPENAPI', name: 'OpenAPI class' },
    defaults: { name: 'Rig' },
  });
}, 120_000);
afterAll(async () => {
  await actors?.stop();
});

describe('declared errors', () => {
  it('the asset-decommission saga start declares the 409 and 422 codes it answers', async () => {
    const assetId = await newAsset();
    const start = (body: Record<string, unknown>) => actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', body);
    const byActor = await start({ assetId, coApprovedBy: actors.userId('Engineer'), reason: 'worn out' });
    expect(byActor).toMatchObject({ status: 422, body: { code: 'ASSET_CO_APPROVER_IS_ACTOR' } });
    const invalid = await start({ assetId, coApprovedBy: actors.userId('Supply'), reason: 'worn out' });
    expect(invalid).toMatchObject({ status: 422, body: { code: 'ASSET_CO_APPROVER_INVALID' } });
    await actors.query(`update operations.asset set status = 'decommissioned' where id = $1`, [assetId]);
    const twice = await start({ assetId, coApprovedBy: actors.userId('CEO'), reason: 'worn out' });
    expect(twice).toMatchObject({ status: 409, body: { code: 'ASSET_ALREADY_DECOMMISSIONED' } });

    const doc = await openapi('/api/v1/openapi.json');
    const responses = doc.paths['/api/v1/eam/sagas/asset-decommission']!.post!.responses as Record<string, unknown>;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(actors.stack.undeclaredErrors()).toEqual([]);
  });
});

describe('unknown body fields', () => {
  it('operations: a PATCH with a misspelt field answers 422 naming it and changes nothing', async () => {
    const path = `/api/v1/core/production-objects/${actors.north}`;
    const before = (await actors.act('Admin', 'GET', path)).body;
    const patched = await actors.act('Admin', 'PATCH', path, { nmae: 'Renamed' });
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toEqual([expect.objectContaining({ field: 'nmae' })]);
    expect((await actors.act('Admin', 'GET', path)).body).toEqual(before);
    expect((await actors.act('Admin', 'PATCH', path, { name: before.name })).status).toBe(200);
  });

  it('research: an unknown field is refused with 422 naming it; the declared fields alone are taken', async () => {
    const create = (body: Record<string, unknown>) =>
      actors.stack.fetch('/admin/research/workspaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
        body: JSON.stringify(body),
      });
    const misspelt = await create({ name: 'Strict', mdoe: 'test' });
    expect(misspelt.status).toBe(422);
    expect(JSON.stringify(await misspelt.json())).toContain('mdoe');
    expect((await create({ name: 'Strict', mode: 'test' })).status).toBe(201);
  });

  it('library: an unknown field of a registration is refused with 422 naming it', async () => {
    const response = await actors.stack.fetch('/v1/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'strict@example.org', organisation: 'typo' }),
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('organisation');
  });

  it('library: the chat completions body takes other fields of its format, documented as additionalProperties', async () => {
    const doc = await openapi('/openapi.json');
    expect(doc.components.schemas.ChatRequest).toMatchObject({ additionalProperties: true });
  });

  it('operations: the OpenAPI request bodies declare additionalProperties false', async () => {
    const doc = await openapi('/api/v1/openapi.json');
    const patch = doc.paths['/api/v1/core/production-objects/{id}']!.patch!.requestBody as {
      content: { 'application/json': { schema: Record<string, unknown> } };
    };
    expect(patch.content['application/json'].schema.additionalProperties).toBe(false);
  });
});

describe('problem details', () => {
  it('title is the code’s stable title and detail the occurrence’s message', async () => {
    const first = await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${randomUUID()}`);
    const second = await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${randomUUID()}`);
    expect(first.status).toBe(404);
    expect(first.body).toMatchObject({ type: 'about:blank', status: 404, title: second.body.title, code: second.body.code });
    expect(first.body.detail).toEqual(expect.any(String));
    expect(first.body.title).not.toBe(first.body.detail);
    const doc = (await openapi('/api/v1/openapi.json')) as OpenApi & { 'x-error-codes': Array<{ code: string; title: string }> };
    expect(doc['x-error-codes'].find((entry) => entry.code === first.body.code)?.title).toBe(first.body.title);
  });
});

describe('metrics', () => {
  it('/metrics is described as public in the operations OpenAPI and serves the exposition format', async () => {
    const doc = await openapi('/api/v1/openapi.json');
    const operation = doc.paths['/metrics']!.get!;
    expect(operation.security).toEqual([]);
    expect(Object.keys((operation.responses as Record<string, { content?: Record<string, unknown> }>)['200']!.content!)).toEqual([
      'text/plain',
    ]);
    const scrape = await actors.stack.fetch('/metrics');
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('qantara_http_requests_total');
  });
});

describe('audit entity types', () => {
  it('lists exactly the entity types the audit triggers of the migrated database write', async () => {
    const rows = await actors.query<{ entity: string }>(
      `select distinct split_part(encode(tgargs, 'escape'), '\\000', 1) as entity from pg_trigger
       where tgfoid = 'operations.audit_row'::regproc order by 1`,
    );
    expect([...AUDIT_ENTITY_TYPES].sort()).toEqual(rows.map((row) => row.entity).sort());
    const doc = await openapi('/api/v1/openapi.json');
    expect(doc.components.schemas.AuditEntityType).toMatchObject({ enum: [...AUDIT_ENTITY_TYPES] });
  });

  it('refuses an entity type that is not audited with 422', async () => {
    const response = await actors.act('Admin', 'GET', `/api/v1/core/audit?entityType=Nothing&entityId=${randomUUID()}`);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'entityType' })]);
  });
});

// Last: the sweep changes what it may (e.g. revokes keys), so it runs after the tests above.
describe('declared errors of every route', () => {
  it('every operations route with a body answers only declared errors to no credentials, a sample body and an unknown field', async () => {
    const ids = { id: randomUUID(), entryId: randomUUID(), sagaId: randomUUID(), kind: 'x' };
    const before = actors.stack.undeclaredErrors().length;
    const statuses: number[] = [];
    let refusedExtra = 0;
    for (const contract of OPERATIONS_CONTRACTS) {
      for (const binding of contract.rest) {
        if (!['POST', 'PATCH', 'PUT'].includes(binding.method) || binding.body === 'upload') continue;
        // Signing out would end the sessions the sweep uses.
        if (binding.path.endsWith('/logout')) continue;
        const path = fillPath(binding.path, ids);
        const body = contract.input.body ? sampleBody(contract) : {};
        const headers = { 'idempotency-key': randomUUID() };
        statuses.push((await call(actors.stack, null, binding.method, path, body, headers)).status);
        statuses.push((await actors.act('Engineer', binding.method, path, body, { 'idempotency-key': randomUUID() })).status);
        const extra = await actors.act('Admin', binding.method, path, { ...body, notAField: 1 }, { 'idempotency-key': randomUUID() });
        statuses.push(extra.status);
        if (contract.input.body && extra.status === 422) refusedExtra += 1;
      }
    }
    // The sweep reached the services, signed in: it met refusals beyond a missing token.
    expect(new Set(statuses)).toEqual(expect.objectContaining(new Set([401, 403, 404, 422])));
    expect(refusedExtra).toBeGreaterThan(50);
    expect(actors.stack.undeclaredErrors().slice(before)).toEqual([]);
  }, 300_000);
});
