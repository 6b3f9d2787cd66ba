import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import { AssetBuilder, drillRigs } from '../support/eam.js';
import { idempotencyKey } from '../support/operations.js';

/** Asset classes and assets: creation with its bounds, reading, lists, object scope, GraphQL; over REST unless said. */

let actors: Actors;
let assetClassId: string;
let assets: AssetBuilder;
const newAsset = (objectId = actors.north, overrides: Record<string, unknown> = {}) => assets.create(objectId, overrides);

beforeAll(async () => {
  actors = await Actors.start();
  assets = new AssetBuilder(actors, drillRigs(100));
  assetClassId = await assets.assetClassId();
});
afterAll(async () => {
  await actors?.stop();
});

describe('asset classes', () => {
  it('creates a class with a code unique in the organization (409 ASSET_CLASS_CODE_TAKEN) and lists them by code', async () => {
    expect(await actors.act('CEO', 'POST', '/api/v1/eam/asset-classes', { code: 'TRUCK', name: 'Самосвалы' })).toMatchObject({
      status: 201,
    });
    const taken = await actors.act('Admin', 'POST', '/api/v1/eam/asset-classes', { code: 'DRILL', name: 'again' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('ASSET_CLASS_CODE_TAKEN');
    const page = await actors.act('Foreman', 'GET', '/api/v1/eam/asset-classes?limit=1');
    expect(page.body.items.map((item: { code: string }) => item.code)).toEqual(['DRILL']);
    const next = await actors.act('Foreman', 'GET', `/api/v1/eam/asset-classes?limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.items[0]).toMatchObject({ code: 'TRUCK', name: 'Самосвалы', active: true });
  });

  it('moves an unused class to the trash and restores it; a class in use answers 409 ASSET_CLASS_IN_USE', async () => {
    const spare = await actors.act('Engineer', 'POST', '/api/v1/eam/asset-classes', { code: 'SPARE', name: 'Spare' });
    expect((await actors.act('Engineer', 'DELETE', `/api/v1/eam/asset-classes/${spare.body.id}`)).status).toBe(200);
    const trash = await actors.act('CEO', 'GET', '/api/v1/core/trash/asset-classes');
    expect(trash.body).toMatchObject({ entity: 'AssetClass', count: 1, rows: [{ id: spare.body.id, code: 'SPARE' }] });
    expect((await actors.act('CEO', 'POST', `/api/v1/core/trash/asset-classes/${spare.body.id}/restore`)).body).toEqual({
      id: spare.body.id,
    });
    await newAsset();
    const inUse = await actors.act('Engineer', 'DELETE', `/api/v1/eam/asset-classes/${assetClassId}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('ASSET_CLASS_IN_USE');
  });
});

describe('assets', () => {
  it('creates an operational asset with its passport at its object', async () => {
    const mechanic = actors.userId('Mechanic');
    const asset = await newAsset(actors.north, { inventoryNumber: 'БУ-0042', responsibleMechanicId: mechanic });
    expect(asset).toMatchObject({
      inventoryNumber: 'БУ-0042',
      status: 'operational',
      currentObjectId: actors.north,
      responsibleMechanicId: mechanic,
      maintenanceId: null,
      commissionedAt: '2024-05-01T00:00:00.000Z',
      passport: { model: 'DM45', year: 2024 },
      decommissionedAt: null,
    });
    expect((await actors.act('Mechanic', 'GET', `/api/v1/eam/assets/${asset.id}`)).body).toEqual(asset);
    expect((await newAsset(actors.north, { inventoryNumber: 'ҚҰ-12345' })).inventoryNumber).toBe('ҚҰ-12345');
  });

  it('refuses a malformed inventory number, a future commissioning date or a missing passport with 422, a taken number with 409', async () => {
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const bodies = [
      { inventoryNumber: 'AB123' },
      { inventoryNumber: 'ABCD-123' },
      { inventoryNumber: 'ab-123' },
      { inventoryNumber: 'AB-12' },
      { inventoryNumber: 'AB-123456' },
      { inventoryNumber: 'ÄB-123' },
      { name: 'x' },
      { commissionedAt: tomorrow },
      { passport: undefined },
      { passport: ['not', 'an', 'object'] },
    ];
    for (const body of bodies) {
      const response = await actors.act('Engineer', 'POST', '/api/v1/eam/assets', {
        inventoryNumber: 'OK-777',
        name: 'Rig',
        assetClassId,
        currentObjectId: actors.north,
        commissionedAt: '2024-01-01',
        passport: {},
        ...body,
      });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    await newAsset(actors.north, { inventoryNumber: 'DUP-001' });
    const taken = await actors.act('Mechanic', 'POST', '/api/v1/eam/assets', {
      inventoryNumber: 'DUP-001',
      name: 'Rig',
      assetClassId,
      currentObjectId: actors.north,
      commissionedAt: '2024-01-01',
      passport: {},
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('ASSET_INVENTORY_NUMBER_TAKEN');
  });

  it('refuses a class or object it cannot see (404) and a responsible mechanic who is no Mechanic (422)', async () => {
    const body = {
      inventoryNumber: 'REF-001',
      name: 'Rig',
      assetClassId,
      currentObjectId: actors.north,
      commissionedAt: '2024-01-01',
      passport: {},
    };
    const unknownClass = await actors.act('Engineer', 'POST', '/api/v1/eam/assets', { ...body, assetClassId: randomUUID() });
    expect(unknownClass.status).toBe(404);
    const otherObject = await actors.act('Mechanic', 'POST', '/api/v1/eam/assets', { ...body, currentObjectId: actors.south });
    expect(otherObject.status).toBe(404);
    expect(otherObject.body.detail).toBe('Production object not found.');
    const notMechanic = await actors.act('Engineer', 'POST', '/api/v1/eam/assets', {
      ...body,
      responsibleMechanicId: actors.userId('Engineer'),
    });
    expect(notMechanic.status).toBe(422);
    expect(notMechanic.body.code).toBe('ASSET_MECHANIC_INVALID');
  });

  it('lists assets newest first by object and status in cursor pages of 1 to 200', async () => {
    const first = await newAsset(actors.south);
    const second = await newAsset(actors.south);
    for (const limit of [0, 201]) expect((await actors.act('CEO', 'GET', `/api/v1/eam/assets?limit=${limit}`)).status).toBe(422);
    const page = await actors.act('CEO', 'GET', `/api/v1/eam/assets?objectId=${actors.south}&status=operational&limit=1`);
    expect(page.body.items.map((item: { id: string }) => item.id)).toEqual([second.id]);
    const next = await actors.act(
      'CEO',
      'GET',
      `/api/v1/eam/assets?objectId=${actors.south}&status=operational&limit=1&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.items.map((item: { id: string }) => item.id)).toEqual([first.id]);
    expect((await actors.act('CEO', 'GET', `/api/v1/eam/assets?objectId=${actors.south}&status=conserved`)).body.items).toEqual([]);
  });

  it('limits Foremen and Mechanics to the assets at their objects, in the list and the card', async () => {
    const away = await newAsset(actors.south);
    for (const role of ['Foreman', 'Mechanic'] as const) {
      const listed = await actors.act(role, 'GET', '/api/v1/eam/assets?limit=200');
      expect(listed.body.items.length).toBeGreaterThan(0);
      expect(listed.body.items.every((item: { currentObjectId: string }) => item.currentObjectId === actors.north)).toBe(true);
      expect((await actors.act(role, 'GET', `/api/v1/eam/assets/${away.id}`)).status).toBe(404);
    }
    expect((await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${away.id}`)).status).toBe(200);
  });
});

describe('bounds', () => {
  it('refuses every text above its documented maximum with 422 on every asset route', async () => {
    const asset = await newAsset();
    const long = (length: number) => 'я'.repeat(length);
    const refusals: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/eam/asset-classes', { code: long(65), name: 'n' }],
      ['POST', '/api/v1/eam/asset-classes', { code: 'LONG', name: long(201) }],
      ['POST', '/api/v1/eam/asset-classes', { code: 'LONG', name: 'n', description: long(1001) }],
      ['POST', `/api/v1/eam/assets/${asset.id}/move`, { toObjectId: actors.south, reason: long(1001) }],
      ['POST', `/api/v1/eam/assets/${asset.id}/send-to-maintenance`, { reason: long(501) }],
      ['POST', `/api/v1/eam/assets/${asset.id}/conserve`, { reason: long(501) }],
      ['POST', `/api/v1/eam/assets/${asset.id}/to-repair`, { reason: long(501) }],
      ['POST', `/api/v1/eam/assets/${asset.id}/decommission`, { coApprovedBy: actors.userId('CEO'), reason: long(1001) }],
    ];
    for (const [method, path, body] of refusals) {
      const refused = await actors.act('Engineer', method, path, body);
      expect([refused.status, refused.body.code], `${path} ${JSON.stringify(body).slice(0, 40)}`).toEqual([422, 'VALIDATION_FAILED']);
    }
    const named = await actors.act('Engineer', 'POST', '/api/v1/eam/assets', {
      inventoryNumber: 'LN-001',
      name: long(201),
      assetClassId,
      currentObjectId: actors.north,
      commissionedAt: '2024-01-01',
      passport: {},
    });
    expect(named.status).toBe(422);
    expect((await actors.act('CEO', 'GET', `/api/v1/eam/assets/${asset.id}`)).body).toMatchObject({
      status: 'operational',
      currentObjectId: actors.north,
    });
  });
});

describe('GraphQL', () => {
  it('serves the same assets, actions and journal as REST', async () => {
    const asset = await newAsset(actors.north);
    const headers = { authorization: `Bearer ${actors.sessions.get('Mechanic')!.token}`, ...idempotencyKey() };
    const conserved = await actors.stack.graphql<{ eamConserveAsset: { status: string } }>(
      'mutation ($id: ID!, $reason: String!) { eamConserveAsset(id: $id, reason: $reason) { status } }',
      { id: asset.id, reason: 'По GraphQL' },
      headers,
    );
    const read = await actors.stack.graphql<{
      eamGetAsset: { status: string; passport: unknown };
      eamListMovements: { items: Array<{ op: string }> };
    }>(
      'query ($id: ID!) { eamGetAsset(id: $id) { status passport } eamListMovements(assetId: $id) { items { op } } }',
      { id: asset.id },
      { authorization: headers.authorization },
    );
    expect(conserved.body.errors ?? read.body.errors).toBeUndefined();
    expect(conserved.body.data?.eamConserveAsset.status).toBe('conserved');
    expect(read.body.data).toEqual({
      eamGetAsset: { status: 'conserved', passport: { model: 'DM45', year: 2024 } },
      eamListMovements: { items: [{ op: 'conservation' }] },
    });
  });
});

describe('audit', () => {
  it('has an audit row for every mutation this file made', async () => {
    expect(actors.mutations.length).toBeGreaterThan(10);
    expect(await actors.unaudited()).toEqual([]);
  });
});
