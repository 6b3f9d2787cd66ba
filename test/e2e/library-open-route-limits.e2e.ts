import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_ROUTE_LIMITS } from '../../contracts/library/plans.js';
import { ADMIN_TOKEN, awayFromMinuteEdge, json, rateLimitHeaders, RATE_LIMIT_HEADERS } from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Seed 000: every response carries the rate-limit and quota headers. Routes that take no key
 * are counted per client address (`OPEN_ROUTE_LIMITS`), in PostgreSQL; a `/v1` call without a
 * key is answered with the free plan's windows, untouched.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
});
afterAll(async () => {
  await stack?.stop();
});

/** Every one of the eight headers is present, with the open routes' limits. */
function expectOpenRouteHeaders(response: Response) {
  const headers = rateLimitHeaders(response);
  for (const name of RATE_LIMIT_HEADERS) expect(headers[name], name).not.toBeNull();
  expect(headers['x-ratelimit-limit']).toBe(String(OPEN_ROUTE_LIMITS.rpm));
  expect(headers['x-quota-limit']).toBe(String(OPEN_ROUTE_LIMITS.rpd));
  expect(headers['ratelimit-policy']).toBe(`"minute";q=${OPEN_ROUTE_LIMITS.rpm};w=60, "day";q=${OPEN_ROUTE_LIMITS.rpd};w=86400`);
  return { minute: Number(headers['x-ratelimit-remaining']), day: Number(headers['x-quota-remaining']) };
}

describe('rate-limit and quota headers on every library response', () => {
  it('puts them on GET /plans, GET /, GET /healthz, POST /v1/register, GET /docs and GET /openapi.json, counting each call against the client address', async () => {
    await awayFromMinuteEdge();
    const calls: Array<() => Promise<Response>> = [
      () => stack.fetch('/plans'),
      () => stack.fetch('/'),
      () => stack.fetch('/healthz'),
      () => stack.fetch('/v1/register', { method: 'POST', ...json({ email: 'open-routes@example.org' }) }),
      () => stack.fetch('/docs'),
      () => stack.fetch('/openapi.json'),
    ];
    let previous: { minute: number; day: number } | undefined;
    for (const call of calls) {
      const response = await call();
      expect(response.status, response.url).toBeLessThan(300);
      const remaining = expectOpenRouteHeaders(response);
      if (previous) {
        expect(remaining.minute).toBe(previous.minute - 1);
        expect(remaining.day).toBe(previous.day - 1);
      }
      previous = remaining;
    }
  });

  it('puts them on a refused registration (422) too', async () => {
    const response = await stack.fetch('/v1/register', { method: 'POST', ...json({ email: 'not an address' }) });
    expect(response.status).toBe(422);
    expectOpenRouteHeaders(response);
  });

  it('puts the free plan’s untouched windows on the 401 for a missing key', async () => {
    const response = await stack.fetch('/v1/books');
    expect(response.status).toBe(401);
    expect(rateLimitHeaders(response)).toEqual({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '10',
      'x-ratelimit-reset': expect.stringMatching(/^\d{10}$/),
      'x-quota-limit': '300',
      'x-quota-remaining': '300',
      'x-quota-reset': expect.stringMatching(/^\d{10}$/),
      'ratelimit-policy': '"minute";q=10;w=60, "day";q=300;w=86400',
      ratelimit: expect.stringMatching(/^"minute";r=10;t=\d+, "day";r=300;t=\d+$/),
    });
  });

  it('refuses an address whose minute window on open routes is full with 429 rate_limit_exceeded and Retry-After, counting nothing more', async () => {
    await awayFromMinuteEdge(30);
    const first = await stack.fetch('/plans');
    const used = OPEN_ROUTE_LIMITS.rpm - expectOpenRouteHeaders(first).minute;
    for (let call = used; call < OPEN_ROUTE_LIMITS.rpm; call++) await stack.fetch('/plans');
    const refused = await stack.fetch('/plans');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(expectOpenRouteHeaders(refused).minute).toBe(0);
    // The pages the edge serves without the library's services share the window.
    for (const path of ['/docs', '/openapi.json']) {
      const page = await stack.fetch(path);
      expect(page.status, path).toBe(429);
      expect(((await page.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
      expect(expectOpenRouteHeaders(page).minute).toBe(0);
    }
  });
});
