import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminKey, adminPost, json, type IssuedKeyBody } from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
});
afterAll(async () => {
  await stack?.stop();
});

const detail = async (response: Response) => {
  expect(response.status).toBe(422);
  return ((await response.json()) as { detail: unknown[] }).detail;
};

describe('admin keys', () => {
  it('creates a key on any plan, shown once as {id, key, plan, limits}', async () => {
    const response = await adminPost(stack, '/admin/keys', { email: 'partner@example.org', plan: 'unlimited', org: 'Partner' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^qk_live_[A-Za-z0-9_-]{43}$/),
      plan: 'unlimited',
      limits: { rpm: 100000, rpd: 100000000, max_limit: 20 },
    });
  });

  it('changes plan, daily quota (null returns to the plan’s) and status, answering with the key', async () => {
    const issued = await adminKey(stack, 'free', 'switch@example.org');
    const planned = await adminPost(stack, `/admin/keys/${issued.id}/plan`, { plan: 'pro' });
    expect(await planned.json()).toMatchObject({ id: issued.id, plan: 'pro', limits: { rpm: 60, rpd: 10000 }, rpd_override: null });
    const capped = await adminPost(stack, `/admin/keys/${issued.id}/rpd`, { rpd: '1234' });
    expect(await capped.json()).toMatchObject({ rpd_override: 1234, limits: { rpm: 60, rpd: 1234 } });
    const reset = await adminPost(stack, `/admin/keys/${issued.id}/rpd`, { rpd: null });
    expect(await reset.json()).toMatchObject({ rpd_override: null, limits: { rpd: 10000 } });
    const suspended = await adminPost(stack, `/admin/keys/${issued.id}/status`, { status: 'suspended' });
    expect(await suspended.json()).toEqual({
      id: issued.id,
      prefix: issued.key.slice(0, 12),
      email: 'switch@example.org',
      org: null,
      plan: 'pro',
      status: 'suspended',
      rpd_override: null,
      limits: { rpm: 60, rpd: 10000, max_limit: 20 },
      created: expect.any(String),
      last_used: null,
    });
  });

  it('reports keys by plan and status, calls today and the busiest keys', async () => {
    const busy = await adminKey(stack, 'pro');
    for (let call = 0; call < 3; call += 1) await stack.fetch('/v1/me', { headers: { authorization: `Bearer ${busy.key}` } });
    const response = await stack.fetch('/admin/stats', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    const stats = (await response.json()) as {
      keys: { total: number; by_plan: Record<string, number>; by_status: Record<string, number> };
      calls_today: number;
      top_keys: unknown[];
    };
    expect(stats.keys.total).toBe(Object.values(stats.keys.by_plan).reduce((a, b) => a + b, 0));
    expect(Object.keys(stats.keys.by_plan)).toEqual(['free', 'pro', 'unlimited']);
    expect(Object.keys(stats.keys.by_status)).toEqual(['active', 'suspended', 'revoked']);
    expect(stats.calls_today).toBeGreaterThanOrEqual(3);
    expect(stats.top_keys[0]).toEqual({
      id: busy.id,
      prefix: busy.key.slice(0, 12),
      email: expect.any(String),
      plan: 'pro',
      status: 'active',
      calls_today: 3,
    });
  });
});

describe('admin token', () => {
  it('answers 401 {detail: "Not authenticated"} alike for a missing and a wrong token, on every admin path', async () => {
    const requests: Array<[string, RequestInit]> = [
      ['/admin/keys', json({ email: 'x@example.org', plan: 'free' })],
      ['/admin/keys/1/plan', json({ plan: 'pro' })],
      ['/admin/keys/1/rpd', json({ rpd: 5 })],
      ['/admin/keys/1/status', json({ status: 'active' })],
      ['/admin/stats', {}],
    ];
    for (const [path, init] of requests) {
      for (const token of [undefined, 'wrong-token-wrong-token', `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
        const headers = { ...(init.headers as Record<string, string>), ...(token ? { 'x-admin-token': token } : {}) };
        const response = await stack.fetch(path, { ...init, headers });
        expect(response.status, `${path} ${token}`).toBe(401);
        expect(await response.json()).toEqual({ detail: 'Not authenticated' });
      }
    }
  });

  it('disables admin when ADMIN_TOKEN is unset', async () => {
    await using disabled = await startStack();
    const response = await disabled.fetch('/admin/stats', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Not authenticated' });
  });
});

describe('admin validation (422 detail as FastAPI/pydantic words it)', () => {
  let issued: IssuedKeyBody;
  beforeAll(async () => {
    issued = await adminKey(stack);
  });

  it('refuses a key_id that is not an integer', async () => {
    expect(await detail(await adminPost(stack, '/admin/keys/abc/plan', { plan: 'pro' }))).toEqual([
      {
        loc: ['path', 'key_id'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        type: 'int_parsing',
        input: 'abc',
        ctx: {},
      },
    ]);
  });

  it('names a missing field, an unknown plan and an unknown status', async () => {
    expect(await detail(await adminPost(stack, `/admin/keys/${issued.id}/plan`, {}))).toEqual([
      { loc: ['body', 'plan'], msg: 'Field required', type: 'missing', input: {}, ctx: {} },
    ]);
    expect(await detail(await adminPost(stack, `/admin/keys/${issued.id}/plan`, { plan: 'gold' }))).toEqual([
      {
        loc: ['body', 'plan'],
        msg: "Input should be 'free', 'pro' or 'unlimited'",
        type: 'literal_error',
        input: 'gold',
        ctx: { expected: "'free', 'pro' or 'unlimited'" },
      },
    ]);
    expect(await detail(await adminPost(stack, `/admin/keys/${issued.id}/status`, { status: 'deleted' }))).toEqual([
      {
        loc: ['body', 'status'],
        msg: "Input should be 'active', 'suspended' or 'revoked'",
        type: 'literal_error',
        input: 'deleted',
        ctx: { expected: "'active', 'suspended' or 'revoked'" },
      },
    ]);
  });

  it('checks rpd as a bounded integer', async () => {
    const rpd = async (value: unknown) => (await detail(await adminPost(stack, `/admin/keys/${issued.id}/rpd`, { rpd: value })))[0];
    expect(await rpd(0)).toEqual({
      loc: ['body', 'rpd'],
      msg: 'Input should be greater than or equal to 1',
      type: 'greater_than_equal',
      input: 0,
      ctx: { ge: 1 },
    });
    expect(await rpd(100000001)).toEqual({
      loc: ['body', 'rpd'],
      msg: 'Input should be less than or equal to 100000000',
      type: 'less_than_equal',
      input: 100000001,
      ctx: { le: 100000000 },
    });
    expect(await rpd(1.5)).toMatchObject({ type: 'int_from_float', input: 1.5 });
    expect(await rpd('many')).toMatchObject({ type: 'int_parsing', input: 'many' });
    expect(await rpd(true)).toMatchObject({ type: 'int_type', msg: 'Input should be a valid integer' });
  });

  it('lists every problem, path first, and checks e-mail addresses', async () => {
    expect(await detail(await adminPost(stack, '/admin/keys/x1/rpd', { rpd: -1 }))).toEqual([
      expect.objectContaining({ loc: ['path', 'key_id'], type: 'int_parsing' }),
      expect.objectContaining({ loc: ['body', 'rpd'], type: 'greater_than_equal' }),
    ]);
    expect(await detail(await adminPost(stack, '/admin/keys', { email: 'nobody', plan: 'free', org: 7 }))).toEqual([
      {
        loc: ['body', 'email'],
        msg: 'value is not a valid email address: An email address must have an @-sign.',
        type: 'value_error',
        input: 'nobody',
        ctx: { reason: 'An email address must have an @-sign.' },
      },
      { loc: ['body', 'org'], msg: 'Input should be a valid string', type: 'string_type', input: 7, ctx: {} },
    ]);
  });

  it('refuses a body that is missing, not an object, or not JSON', async () => {
    expect(
      await detail(await stack.fetch(`/admin/keys/${issued.id}/plan`, { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN } })),
    ).toEqual([{ loc: ['body'], msg: 'Field required', type: 'missing', input: null, ctx: {} }]);
    expect(await detail(await adminPost(stack, `/admin/keys/${issued.id}/plan`, ['pro']))).toEqual([
      {
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        type: 'model_attributes_type',
        input: ['pro'],
        ctx: {},
      },
    ]);
    const broken = await stack.fetch(`/admin/keys/${issued.id}/plan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: '{"plan":',
    });
    expect(await detail(broken)).toEqual([
      { loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: 'request body is not valid JSON' } },
    ]);
  });

  it('reports a key_id no key has as a value error of the path parameter', async () => {
    for (const id of ['999999', '99999999999', '0', '-3']) {
      expect(await detail(await adminPost(stack, `/admin/keys/${id}/status`, { status: 'active' }))).toEqual([
        {
          loc: ['path', 'key_id'],
          msg: `Value error, no API key has id ${Number(id)}`,
          type: 'value_error',
          input: Number(id),
          ctx: { error: `no API key has id ${Number(id)}` },
        },
      ]);
    }
  });
});

describe('admin on GraphQL', () => {
  it('guards admin fields with x-admin-token and reports validation in extensions', async () => {
    const query = 'mutation ($id: Int!, $plan: String!) { libraryAdminSetKeyPlan(keyId: $id, plan: $plan) { plan } }';
    const refused = await stack.graphql(query, { id: 1, plan: 'pro' });
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'admin_unauthorized' });
    const invalid = await stack.graphql(query, { id: 1, plan: 'gold' }, { 'x-admin-token': ADMIN_TOKEN });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({
      code: 'invalid_admin_input',
      validation: [{ loc: ['body', 'plan'], type: 'literal_error' }],
    });
    const stats = await stack.graphql<{ libraryAdminStats: { keysTotal: number } }>(
      '{ libraryAdminStats { keysTotal } }',
      {},
      { 'x-admin-token': ADMIN_TOKEN },
    );
    expect(stats.body.data?.libraryAdminStats.keysTotal).toBeGreaterThan(0);
  });
});

describe('GraphQL on the gateway', () => {
  it('registers, reads the key and its usage, with the same headers as REST', async () => {
    const registered = await stack.graphql<{ libraryRegister: { key: string; plan: string } }>(
      'mutation ($email: String!) { libraryRegister(email: $email) { key plan limits { rpm rpd maxLimit } } }',
      { email: 'graphql@example.org' },
    );
    expect(registered.body.data?.libraryRegister.plan).toBe('free');
    const key = registered.body.data!.libraryRegister.key;
    const response = await stack.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: '{ libraryMe { key { plan status } usedToday } libraryUsage(days: 2) { days rows { calls } } }' }),
    });
    expect(response.headers.get('x-quota-limit')).toBe('300');
    expect(((await response.json()) as { data: unknown }).data).toEqual({
      libraryMe: { key: { plan: 'free', status: 'active' }, usedToday: 1 },
      libraryUsage: { days: 2, rows: [{ calls: 2 }, { calls: 0 }] },
    });
  });

  it('answers a call without a key with extensions.code missing_api_key and status 401', async () => {
    const { status, body } = await stack.graphql('{ libraryMe { usedToday } }');
    expect(status).toBe(401);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'missing_api_key', http: { status: 401 } });
  });
});
