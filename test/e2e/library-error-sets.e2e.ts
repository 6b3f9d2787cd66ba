import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminKey, adminPost } from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Each operation answers only with the statuses it publishes (the seed's, as the
 * OpenAPI description lists them), whatever a client sends.
 */

let stack: TestStack;
let published: Record<string, Record<string, { responses: Record<string, unknown> }>>;
const keys: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
  published = ((await (await stack.fetch('/openapi.json')).json()) as { paths: typeof published }).paths;
  keys.active = (await adminKey(stack)).key;
  const suspended = await adminKey(stack);
  await adminPost(stack, `/admin/keys/${suspended.id}/status`, { status: 'suspended' });
  keys.suspended = suspended.key;
  const revoked = await adminKey(stack);
  await adminPost(stack, `/admin/keys/${revoked.id}/status`, { status: 'revoked' });
  keys.revoked = revoked.key;
  const exhausted = await adminKey(stack);
  await adminPost(stack, `/admin/keys/${exhausted.id}/rpd`, { rpd: 1 });
  await stack.fetch('/v1/me', { headers: { authorization: `Bearer ${exhausted.key}` } });
  keys.exhausted = exhausted.key;
});
afterAll(async () => {
  await stack?.stop();
});

const statusesFor = (path: string, method: string) =>
  Object.keys(published[path]?.[method]?.responses ?? {})
    .map(Number)
    .sort();
const authorizations = () => [
  undefined,
  'Basic eDp5',
  'Bearer',
  'Bearer qk_live_short',
  ...Object.values(keys).map((key) => `Bearer ${key}`),
];

async function observed(requests: Array<[string, RequestInit]>): Promise<number[]> {
  const statuses = new Set<number>();
  for (const [path, init] of requests) statuses.add((await stack.fetch(path, init)).status);
  return [...statuses].sort();
}

describe('published error sets', () => {
  it('GET /v1/me answers only 200, 401 or 429', async () => {
    const requests = authorizations().map((authorization): [string, RequestInit] => [
      '/v1/me?x=1',
      { headers: authorization ? { authorization } : {} },
    ]);
    const seen = await observed(requests);
    expect(seen).toEqual([200, 401, 429]);
    expect(statusesFor('/v1/me', 'get')).toEqual(expect.arrayContaining(seen));
  });

  it('GET /v1/usage answers only 200, 401 or 429 — days out of range or malformed is never a 422', async () => {
    const fresh = (await adminKey(stack, 'pro')).key;
    const days = ['', '0', '-5', '1', '90', '91', '1e3', 'abc', '1.5', '99999999999999999999'];
    const requests: Array<[string, RequestInit]> = [
      ...days.map((value): [string, RequestInit] => [`/v1/usage?days=${value}`, { headers: { authorization: `Bearer ${fresh}` } }]),
      ...authorizations().map((authorization): [string, RequestInit] => [
        '/v1/usage?days=abc',
        { headers: authorization ? { authorization } : {} },
      ]),
    ];
    const seen = await observed(requests);
    expect(seen).toEqual([200, 401, 429]);
    expect(statusesFor('/v1/usage', 'get')).toEqual(expect.arrayContaining(seen));
  });

  it('POST /v1/register answers only 201, 422 or 429, even for a body that is not JSON', async () => {
    const post = (body: string, type = 'application/json'): [string, RequestInit] => [
      '/v1/register',
      { method: 'POST', headers: { 'content-type': type }, body },
    ];
    const bodies = [
      '{"email":"a@example.org"}',
      '{}',
      '',
      '[]',
      'null',
      '{"email":5}',
      '{"email":"a@b"}',
      '{"email":"b@example.org","org":5}',
      `{"email":"c@example.org","org":"${'x'.repeat(201)}"}`,
      '{"email":',
    ];
    const seen = await observed([
      ...bodies.map((body) => post(body)),
      ...Array.from({ length: 6 }, (_, i) => post(`{"email":"many${i}@example.org"}`)),
    ]);
    expect(seen).toEqual([201, 422, 429]);
    expect(statusesFor('/v1/register', 'post')).toEqual(seen);
  });

  it('admin operations answer only 200, 401 or 422', async () => {
    const target = await adminKey(stack);
    const bodies = [undefined, '{', '[]', '{}', '{"plan":"gold","rpd":0,"status":"gone"}', '{"plan":"pro","rpd":5,"status":"active"}'];
    for (const [path, method] of [
      [`/admin/keys/${target.id}/plan`, 'post'],
      [`/admin/keys/${target.id}/rpd`, 'post'],
      [`/admin/keys/${target.id}/status`, 'post'],
      ['/admin/keys/abc/plan', 'post'],
      ['/admin/keys/0/status', 'post'],
      ['/admin/keys', 'post'],
      ['/admin/stats', 'get'],
    ] as const) {
      const requests = [ADMIN_TOKEN, 'wrong', undefined].flatMap((token) =>
        bodies.map((body): [string, RequestInit] => [
          path,
          {
            method: method.toUpperCase(),
            headers: { 'content-type': 'application/json', ...(token ? { 'x-admin-token': token } : {}) },
            body: method === 'get' ? undefined : body,
          },
        ]),
      );
      const seen = await observed(requests);
      const template = path.replace(/^\/admin\/keys\/[^/]+\//, '/admin/keys/{key_id}/');
      expect(statusesFor(template, method), path).toEqual(expect.arrayContaining(seen));
      expect(
        seen.every((status) => [200, 401, 422].includes(status)),
        `${path}: ${seen}`,
      ).toBe(true);
    }
  });

  it('GET /plans publishes no error and answers 200 to anything', async () => {
    const seen = await observed([
      ['/plans', {}],
      ['/plans?x=1', { headers: { authorization: 'Bearer nonsense' } }],
      ['/plans', { headers: { 'x-admin-token': 'x' } }],
    ]);
    expect(seen).toEqual([200]);
  });
});
