import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  demoEmail,
  idempotencyKey,
  login,
  OPERATIONS_ENV,
  otherOrganization,
  SUPER_ADMIN,
  type Call,
  type Session,
} from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Business API keys (seed 001, part B) over real HTTP: `X-API-Key` on operations routes,
 * scopes by method, the owner's roles, expiry and revocation at once, rotation, and the
 * organization's daily quota with its headers.
 */

let stack: TestStack;
let admin: Session;
let root: Session;
let db: pg.Client;

const withKey = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(stack, null, method, path, body, { 'x-api-key': key, ...headers });

async function createKey(session: Session, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Call> {
  const created = await call(stack, session, 'POST', '/api/v1/api-keys', body, headers);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created;
}

/** A new organization with its own Admin (its own quota). */
async function organization(plan?: string): Promise<{ id: string; admin: Session }> {
  const slug = `keys-${randomUUID().slice(0, 8)}`;
  const created = await otherOrganization(stack, slug, slug);
  if (plan)
    expect((await call(stack, root, 'PATCH', `/api/v1/core/organizations/${created.organizationId}`, { plan })).body.plan).toBe(plan);
  return { id: created.organizationId, admin: created.admin };
}

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  admin = await login(stack, demoEmail('Admin'));
  root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

describe('keys', () => {
  it('shows the secret once: the prefix and 43 URL-safe characters, of which only a hash and the first 12 are kept', async () => {
    const created = await createKey(admin, { label: 'ci' });
    const { key, api_key: record } = created.body;
    expect(key).toMatch(/^qsk_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({ label: 'ci', scopes: ['read'], prefix: key.slice(0, 12), status: 'active', last_used_at: null });
    expect(new Date(record.expires_at).getTime() - new Date(record.created_at).getTime()).toBeCloseTo(365 * 86_400_000, -5);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const listed = await call(stack, admin, 'GET', '/api/v1/api-keys');
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(record.id);
    const stored = await db.query(`select key_hash, prefix from operations.api_key where id = $1`, [record.id]);
    expect(stored.rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0].key_hash).not.toContain(key.slice(4));
  });

  it('allows by method: read for GET, write for POST and PATCH, delete for DELETE, * for all', async () => {
    const keys = Object.fromEntries(
      await Promise.all(
        (['read', 'write', 'delete', '*'] as const).map(async (scope) => [
          scope,
          (await createKey(admin, { label: scope, scopes: [scope] })).body.key,
        ]),
      ),
    ) as Record<'read' | 'write' | 'delete' | '*', string>;
    const code = `K${randomUUID().slice(0, 6)}`;
    const preview = (key: string) => withKey(key, 'POST', '/api/v1/hr/positions/import/preview', { rows: [{ code, name: 'Keyed' }] });
    const list = (key: string) => withKey(key, 'GET', '/api/v1/hr/positions');
    const expectations: Array<[keyof typeof keys, 'GET' | 'POST', number]> = [
      ['read', 'GET', 200],
      ['read', 'POST', 403],
      ['write', 'GET', 403],
      ['write', 'POST', 200],
      ['delete', 'GET', 403],
      ['delete', 'POST', 403],
      ['*', 'GET', 200],
      ['*', 'POST', 200],
    ];
    for (const [scope, method, status] of expectations) {
      const response = method === 'GET' ? await list(keys[scope]) : await preview(keys[scope]);
      expect(response.status, `${scope} ${method}`).toBe(status);
      if (status === 403) expect(response.body.code).toBe('API_KEY_SCOPE_MISSING');
    }
    // DELETE and PATCH on a row of the book.
    const batch = await preview(keys['*']);
    await withKey(keys['*'], 'POST', '/api/v1/hr/positions/import/commit', { batchId: batch.body.batchId }, idempotencyKey());
    const row = (await list(keys.read)).body.find((item: { code: string }) => item.code === code);
    expect((await withKey(keys.read, 'PATCH', `/api/v1/hr/positions/${row.id}`, { name: 'Renamed' })).status).toBe(403);
    expect((await withKey(keys.write, 'PATCH', `/api/v1/hr/positions/${row.id}`, { name: 'Renamed' })).status).toBe(200);
    expect((await withKey(keys.write, 'DELETE', `/api/v1/hr/positions/${row.id}`)).status).toBe(403);
    expect((await withKey(keys.delete, 'DELETE', `/api/v1/hr/positions/${row.id}`)).status).toBe(200);
  });

  it('never does more than its owner’s roles allow', async () => {
    const engineer = await login(stack, demoEmail('Engineer'));
    const key = (await createKey(engineer, { label: 'engineer', scopes: ['*'] })).body.key;
    const users = await withKey(key, 'GET', '/api/v1/iam/users');
    expect(users.status).toBe(403);
    expect(users.body.code).toBe('ROLE_FORBIDDEN');
    expect((await withKey(key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
  });

  it('needs the admin scope for super-admin operations', async () => {
    const organization = { 'x-organization-id': admin.organizationId! };
    const read = (await createKey(root, { label: 'root-read', scopes: ['read'] }, organization)).body.key;
    const adminKey = (await createKey(root, { label: 'root-admin', scopes: ['admin'] }, organization)).body.key;
    expect((await withKey(read, 'GET', '/api/v1/core/organizations')).body.code).toBe('API_KEY_SCOPE_MISSING');
    expect((await withKey(adminKey, 'GET', '/api/v1/core/organizations')).status).toBe(200);
  });

  it('refuses key management with a key: keys are managed with a user’s bearer token', async () => {
    const key = (await createKey(admin, { label: 'all', scopes: ['*'] })).body.key;
    expect((await withKey(key, 'POST', '/api/v1/api-keys', { label: 'child' })).status).toBe(403);
    expect((await withKey(key, 'GET', '/api/v1/api-keys')).status).toBe(403);
  });

  it('answers 401 to unknown, expired and revoked keys; revocation applies to the very next call', async () => {
    const unknown = await withKey(`qsk_${'A'.repeat(43)}`, 'GET', '/api/v1/hr/positions');
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('API_KEY_INVALID');

    const expiring = (await createKey(admin, { label: 'expiring', expires_in_days: 1 })).body;
    expect((await withKey(expiring.key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
    await db.query(`update operations.api_key set expires_at = now() - interval '1 second' where id = $1`, [expiring.api_key.id]);
    const expired = await withKey(expiring.key, 'GET', '/api/v1/hr/positions');
    expect(expired.status).toBe(401);
    expect(expired.body.detail).toContain('expired');

    const revoking = (await createKey(admin, { label: 'revoking' })).body;
    expect((await withKey(revoking.key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
    const revoked = await call(stack, admin, 'DELETE', `/api/v1/api-keys/${revoking.api_key.id}`);
    expect(revoked.body).toMatchObject({ id: revoking.api_key.id, status: 'revoked' });
    const after = await withKey(revoking.key, 'GET', '/api/v1/hr/positions');
    expect(after.status).toBe(401);
    expect(after.body.detail).toContain('revoked');
  });

  it('refuses a user’s keys at once while an Admin has their API access off, and takes them again when it is back on', async () => {
    const { admin: orgAdmin } = await organization();
    const email = `engineer-${randomUUID().slice(0, 8)}@example.org`;
    const created = await call(stack, orgAdmin, 'POST', '/api/v1/iam/users', {
      email,
      password: 'engineer-password',
      name: 'Eng',
      roles: ['Engineer'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.apiAccess).toBe(true);
    const engineer = await login(stack, email, 'engineer-password');
    const key = (await createKey(engineer, { label: 'engineer-ci' })).body.key;
    expect((await withKey(key, 'GET', '/api/v1/hr/positions')).status).toBe(200);

    const off = await call(stack, orgAdmin, 'PATCH', `/api/v1/iam/users/${created.body.id}`, { apiAccess: false });
    expect(off.status).toBe(200);
    expect(off.body.apiAccess).toBe(false);
    const refused = await withKey(key, 'GET', '/api/v1/hr/positions');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('API_KEY_INVALID');
    expect(refused.body.detail).toContain('API access is off');
    // The switch is about keys: the user still signs in and works with a bearer token.
    expect((await call(stack, engineer, 'GET', '/api/v1/hr/positions')).status).toBe(200);

    expect((await call(stack, orgAdmin, 'PATCH', `/api/v1/iam/users/${created.body.id}`, { apiAccess: true })).body.apiAccess).toBe(true);
    expect((await withKey(key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
  });

  it('lets only the owner or an Admin manage a key; others find none', async () => {
    const engineer = await login(stack, demoEmail('Engineer'));
    const mine = (await createKey(admin, { label: 'admins' })).body.api_key;
    expect((await call(stack, engineer, 'DELETE', `/api/v1/api-keys/${mine.id}`)).status).toBe(404);
    const theirs = (await createKey(engineer, { label: 'engineers' })).body.api_key;
    const listed = await call(stack, engineer, 'GET', '/api/v1/api-keys');
    expect(listed.body.items.every((item: { user_id: string }) => item.user_id === engineer.userId)).toBe(true);
    expect((await call(stack, admin, 'DELETE', `/api/v1/api-keys/${theirs.id}`)).status).toBe(200);
  });

  it('rotates: a new key with the label suffixed -v2 and the same scopes, the old one working until revoked', async () => {
    const old = (await createKey(admin, { label: 'deploy', scopes: ['read', 'write'], expires_in_days: 30 })).body;
    expect((await withKey(old.key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
    const rotated = await call(stack, admin, 'POST', `/api/v1/api-keys/${old.api_key.id}/rotate`);
    expect(rotated.status).toBe(201);
    expect(rotated.body.api_key).toMatchObject({ label: 'deploy-v2', scopes: ['read', 'write'], user_id: admin.userId });
    expect(rotated.body.key).not.toBe(old.key);
    expect((await withKey(rotated.body.key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
    expect((await withKey(old.key, 'GET', '/api/v1/hr/positions')).status).toBe(200);
    const listed = (await call(stack, admin, 'GET', '/api/v1/api-keys?limit=200')).body.items;
    expect(listed.find((item: { id: string }) => item.id === old.api_key.id).last_used_at).toEqual(expect.any(String));
    const again = await call(stack, admin, 'POST', `/api/v1/api-keys/${rotated.body.api_key.id}/rotate`);
    expect(again.body.api_key.label).toBe('deploy-v3');
  });
});

describe('OpenAPI', () => {
  it('names the key scope each operation needs, and bearer tokens alone for key management', async () => {
    const document = (await (await stack.fetch('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security: unknown }>>;
    };
    expect(document.paths['/api/v1/hr/positions']!.get!.security).toEqual([{ bearerToken: [] }, { apiKey: ['read'] }]);
    expect(document.paths['/api/v1/hr/positions/{id}']!.patch!.security).toEqual([{ bearerToken: [] }, { apiKey: ['write'] }]);
    expect(document.paths['/api/v1/hr/positions/{id}']!.delete!.security).toEqual([{ bearerToken: [] }, { apiKey: ['delete'] }]);
    expect(document.paths['/api/v1/core/organizations']!.get!.security).toEqual([{ bearerToken: [] }, { apiKey: ['admin'] }]);
    expect(document.paths['/api/v1/api-keys/{keyId}']!.delete!.security).toEqual([{ bearerToken: [] }]);
  });
});

describe('daily quota', () => {
  it('sends X-RateLimit-Limit, -Remaining and -Reset (the next UTC midnight) with every answer to a valid key', async () => {
    const { admin: orgAdmin } = await organization();
    const key = (await createKey(orgAdmin, { label: 'quota', scopes: ['read'] })).body.key;
    const first = await withKey(key, 'GET', '/api/v1/hr/positions');
    const refused = await withKey(key, 'POST', '/api/v1/hr/positions/import/preview', { rows: [] });
    expect(refused.status).toBe(403);
    const midnight = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) / 1000);
    for (const [response, remaining] of [
      [first, 999],
      [refused, 998],
    ] as const) {
      expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBe(midnight);
    }
  });

  it('sends the X-RateLimit headers on refusals too: 401 for an unknown, expired or revoked key, 403 where a user’s token is needed', async () => {
    const { admin: orgAdmin } = await organization();
    const midnight = String(
      Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) / 1000),
    );
    const headersOf = (response: Call) => [
      response.headers.get('x-ratelimit-limit'),
      response.headers.get('x-ratelimit-remaining'),
      response.headers.get('x-ratelimit-reset'),
    ];
    const unknown = await withKey(`qsk_${'B'.repeat(43)}`, 'GET', '/api/v1/hr/positions');
    expect(unknown.status).toBe(401);
    expect(headersOf(unknown)).toEqual(['0', '0', midnight]);

    const created = (await createKey(orgAdmin, { label: 'refusals', scopes: ['read'] })).body;
    expect((await withKey(created.key, 'GET', '/api/v1/hr/positions')).headers.get('x-ratelimit-remaining')).toBe('999');
    const userOnly = await withKey(created.key, 'GET', '/api/v1/iam/me');
    expect(userOnly.status).toBe(403);
    expect(headersOf(userOnly)).toEqual(['1000', '999', midnight]);
    await db.query(`update operations.api_key set expires_at = now() - interval '1 second' where id = $1`, [created.api_key.id]);
    const expired = await withKey(created.key, 'GET', '/api/v1/hr/positions');
    expect(expired.status).toBe(401);
    expect(headersOf(expired)).toEqual(['1000', '999', midnight]);
    await db.query(`update operations.api_key set revoked_at = now() where id = $1`, [created.api_key.id]);
    const revoked = await withKey(created.key, 'GET', '/api/v1/hr/positions');
    expect(revoked.status).toBe(401);
    expect(headersOf(revoked)).toEqual(['1000', '999', midnight]);
  });

  it('refuses the 1001st call of a Free organization’s day with 429, exactly, under concurrency', async () => {
    const { admin: orgAdmin } = await organization();
    const key = (await createKey(orgAdmin, { label: 'burst' })).body.key;
    const statuses: number[] = [];
    for (let batch = 0; batch < 1005 / 15; batch++) {
      const responses = await Promise.all(
        Array.from({ length: Math.min(15, 1005 - batch * 15) }, () => withKey(key, 'GET', '/api/v1/hr/positions')),
      );
      statuses.push(...responses.map((response) => response.status));
    }
    expect(statuses).toHaveLength(1005);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1000);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const over = await withKey(key, 'GET', '/api/v1/hr/positions');
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('API_KEY_QUOTA_EXCEEDED');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // A user's bearer token is not metered.
    expect((await call(stack, orgAdmin, 'GET', '/api/v1/hr/positions')).status).toBe(200);
  }, 180_000);

  it('follows the organization’s plan: Pro 10,000 a day, Enterprise unlimited', async () => {
    for (const [plan, limit] of [
      ['pro', '10000'],
      ['enterprise', '2147483647'],
    ] as const) {
      const { admin: orgAdmin } = await organization(plan);
      const key = (await createKey(orgAdmin, { label: plan })).body.key;
      expect((await withKey(key, 'GET', '/api/v1/hr/positions')).headers.get('x-ratelimit-limit')).toBe(limit);
    }
  });
});
