import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  adminKey,
  adminPost,
  awayFromMinuteEdge,
  bearer,
  json,
  rateLimitHeaders,
  RATE_LIMIT_HEADERS,
  type IssuedKeyBody,
} from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
});
afterAll(async () => {
  await stack?.stop();
});

const me = (key: string) => stack.fetch('/v1/me', bearer(key));
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('bearer authentication on /v1', () => {
  it('answers 401 missing_api_key in the library error shape, with the free plan’s untouched windows in the headers, when no key is sent', async () => {
    const response = await stack.fetch('/v1/me');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        message: 'Missing API key: send Authorization: Bearer <key>.',
        type: 'authentication_error',
        code: 'missing_api_key',
        param: null,
        details: null,
      },
    });
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).not.toBeNull();
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('10');
    expect(response.headers.get('x-quota-remaining')).toBe('300');
  });

  it('treats an Authorization header that is not a bearer key as no key', async () => {
    const response = await stack.fetch('/v1/usage', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
  });

  it('answers 401 invalid_api_key for an unknown key, with the free plan’s untouched windows in the headers', async () => {
    for (const key of ['qk_live_not-a-real-key', `qk_live_${'A'.repeat(43)}`]) {
      const response = await me(key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { message: 'Invalid API key.', type: 'authentication_error', code: 'invalid_api_key', param: null, details: null },
      });
      expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('10');
      expect(response.headers.get('x-quota-remaining')).toBe('300');
    }
  });

  it('applies suspension and revocation on the very next call, and reactivation too', async () => {
    const issued = await adminKey(stack);
    expect((await me(issued.key)).status).toBe(200);
    expect((await adminPost(stack, `/admin/keys/${issued.id}/status`, { status: 'suspended' })).status).toBe(200);
    const suspended = await me(issued.key);
    expect(suspended.status).toBe(401);
    expect(await suspended.json()).toEqual({
      error: { message: 'This API key is suspended.', type: 'authentication_error', code: 'key_suspended', param: null, details: null },
    });
    expect(suspended.headers.get('x-quota-remaining')).toBe('299');
    await adminPost(stack, `/admin/keys/${issued.id}/status`, { status: 'active' });
    expect((await me(issued.key)).status).toBe(200);
    await adminPost(stack, `/admin/keys/${issued.id}/status`, { status: 'revoked' });
    const revoked = await me(issued.key);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe('key_revoked');
  });
});

describe('limits', () => {
  it('lets the first 10 calls of a minute pass and answers the 11th with 429 and Retry-After', async () => {
    const issued = await adminKey(stack);
    await awayFromMinuteEdge();
    for (let call = 1; call <= 10; call += 1) {
      const response = await me(issued.key);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(10 - call));
      expect(response.headers.get('x-quota-remaining')).toBe(String(300 - call));
    }
    const refused = await me(issued.key);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: {
        message: expect.stringMatching(/^Rate limit exceeded: 10 calls per minute/),
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        param: null,
        details: null,
      },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-quota-remaining')).toBe('290');
  });

  it('exhausts the daily quota of a key with an admin rpd override and answers 429 quota_exceeded until UTC midnight', async () => {
    const issued = await adminKey(stack);
    expect((await adminPost(stack, `/admin/keys/${issued.id}/rpd`, { rpd: 3 })).status).toBe(200);
    await awayFromMinuteEdge();
    for (let call = 1; call <= 3; call += 1) expect((await me(issued.key)).status).toBe(200);
    const refused = await me(issued.key);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('quota_exceeded');
    const midnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) / 1000;
    expect(refused.headers.get('x-quota-limit')).toBe('3');
    expect(refused.headers.get('x-quota-remaining')).toBe('0');
    expect(refused.headers.get('x-quota-reset')).toBe(String(midnight));
    expect(Math.abs(Number(refused.headers.get('retry-after')) - (midnight - nowSeconds()))).toBeLessThanOrEqual(2);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('7');
  });

  it('admits exactly 10 of 50 concurrent calls on a fresh key, and the refused ones consume nothing', async () => {
    const issued = await adminKey(stack);
    await awayFromMinuteEdge();
    const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await me(issued.key)).status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
    const stats = (await (await stack.fetch('/admin/stats', { headers: { 'x-admin-token': ADMIN_TOKEN } })).json()) as {
      top_keys: Array<{ id: number; calls_today: number }>;
    };
    expect(stats.top_keys.find((entry) => entry.id === issued.id)?.calls_today).toBe(10);
  });

  it('puts every rate-limit header on success and error responses, resets in epoch seconds', async () => {
    const issued = await adminKey(stack, 'pro');
    await awayFromMinuteEdge();
    const success = await me(issued.key);
    const headers = rateLimitHeaders(success);
    expect(headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': expect.stringMatching(/^\d{10}$/),
      'x-quota-limit': '10000',
      'x-quota-remaining': '9999',
      'x-quota-reset': expect.stringMatching(/^\d{10}$/),
      'ratelimit-policy': '"minute";q=60;w=60, "day";q=10000;w=86400',
      ratelimit: expect.stringMatching(/^"minute";r=59;t=\d+, "day";r=9999;t=\d+$/),
    });
    const minuteReset = Number(headers['x-ratelimit-reset']);
    expect(minuteReset % 60).toBe(0);
    expect(minuteReset - nowSeconds()).toBeLessThanOrEqual(60);
    expect(Number(headers['x-quota-reset']) % 86400).toBe(0);
    await adminPost(stack, `/admin/keys/${issued.id}/status`, { status: 'suspended' });
    const failure = await me(issued.key);
    expect(failure.status).toBe(401);
    for (const name of RATE_LIMIT_HEADERS) expect(failure.headers.get(name), name).not.toBeNull();
  });
});

describe('registration', () => {
  const register = (body: unknown) => stack.fetch('/v1/register', json(body));

  it('issues a qk_live_ key once with 201 {key, plan, limits} and stores only its SHA-256', async () => {
    const response = await register({ email: 'Reader@Example.org', org: 'دار النشر' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as IssuedKeyBody;
    expect(body).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^qk_live_[A-Za-z0-9_-]{43}$/),
      plan: 'free',
      limits: { rpm: 10, rpd: 300, max_limit: 20 },
    });
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('select * from library.api_key where id = $1', [body.id]);
      expect(rows[0].key_hash).toBe(createHash('sha256').update(body.key).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(body.key);
    } finally {
      await client.end();
    }
    expect((await me(body.key)).status).toBe(200);
  });

  it('answers the 4th registration of one e-mail address in a UTC day with 429 and Retry-After', async () => {
    for (let attempt = 1; attempt <= 2; attempt += 1) expect((await register({ email: 'reader@example.org' })).status).toBe(201);
    const refused = await register({ email: 'READER@example.org ' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: {
        message: 'Too many keys registered today for this e-mail address (at most 3 per UTC day).',
        type: 'rate_limit_error',
        code: 'registration_limit_exceeded',
        param: 'email',
        details: null,
      },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers the 6th registration from one client address in a UTC day with 429, a refused one having counted nothing', async () => {
    // Three registrations so far from 127.0.0.1 (the refused 4th counted nothing).
    for (const email of ['second@example.org', 'third@example.org']) expect((await register({ email })).status).toBe(201);
    const refused = await register({ email: 'fourth@example.org' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'registration_limit_exceeded', param: null } });
  });

  it('refuses a malformed e-mail with 422 invalid_email', async () => {
    for (const body of [{ email: 'not-an-address' }, {}, { email: 42 }]) {
      const response = await register(body);
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_email', param: 'email' } });
    }
  });
});

describe('/v1/me and /v1/usage', () => {
  let issued: IssuedKeyBody;
  beforeAll(async () => {
    issued = await adminKey(stack, 'pro', 'owner@example.org');
  });

  it('/v1/me describes the calling key and its consumption today and this minute, this call included', async () => {
    await awayFromMinuteEdge();
    await stack.fetch('/v1/usage', bearer(issued.key));
    const body = (await (await me(issued.key)).json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: issued.id,
      prefix: issued.key.slice(0, 12),
      email: 'owner@example.org',
      org: null,
      plan: 'pro',
      status: 'active',
      rpd_override: null,
      limits: { rpm: 60, rpd: 10000, max_limit: 20 },
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_used: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      usage: {
        today: 2,
        this_minute: 2,
        remaining_today: 9998,
        remaining_this_minute: 58,
        day_reset: expect.any(Number),
        minute_reset: expect.any(Number),
      },
    });
  });

  it('/v1/usage lists one row per UTC day (default 30) with calls by operation', async () => {
    const body = (await (await stack.fetch('/v1/usage', bearer(issued.key))).json()) as {
      days: number;
      total: number;
      usage: Array<{ date: string; calls: number; by_operation: Record<string, number> }>;
    };
    expect(body.days).toBe(30);
    expect(body.usage).toHaveLength(30);
    expect(body.usage[0]).toEqual({ date: new Date().toISOString().slice(0, 10), calls: 3, by_operation: { me: 1, usage: 2 } });
    expect(body.total).toBe(3);
    expect(body.usage.slice(1).every((row) => row.calls === 0)).toBe(true);
  });

  it('/v1/usage?days=91 is served capped at 90 days, never 422', async () => {
    for (const days of ['91', '5000', '99999999999']) {
      const response = await stack.fetch(`/v1/usage?days=${days}`, bearer(issued.key));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { days: number; usage: unknown[] };
      expect(body.days).toBe(90);
      expect(body.usage).toHaveLength(90);
    }
  });
});
