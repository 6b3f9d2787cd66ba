import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * CORS over real HTTP: preflights and answers for the origins of `CORS_ORIGINS` on the REST
 * families, `/graphql` and MCP; credentials only for origins named exactly; nothing for others.
 */

const APP = 'https://app.example.org';
const STRANGER = 'https://stranger.example.net';

const preflight = (stack: TestStack, path: string, origin: string, method = 'POST') =>
  stack.fetch(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });

const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS with named origins', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ CORS_ORIGINS: `${APP}, http://localhost:5173` });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    '/api/v1/iam/users',
    '/api/v1/health/live',
    '/v1/books',
    '/v1/billing/checkout',
    '/api/chat/threads',
    '/graphql',
    '/mcp',
    '/v1/mcp',
  ])('answers the preflight of %s for a named origin with 204, methods, headers, max-age and credentials', async (path) => {
    const response = await preflight(stack, path, APP);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b/);
    expect(response.headers.get('access-control-allow-methods')).toMatch(/\bPATCH\b/);
    const allowed = response.headers.get('access-control-allow-headers')?.split(/,\s*/) ?? [];
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-api-key']));
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('sets the allowed origin and exposes the limit, quota, replay, location and retry headers on REST answers', async () => {
    const response = await stack.fetch('/api/v1/health/live', { headers: { origin: APP } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
    const exposed = response.headers.get('access-control-expose-headers')?.split(/,\s*/) ?? [];
    expect(exposed).toEqual(
      expect.arrayContaining([
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'x-quota-limit',
        'x-quota-remaining',
        'x-quota-reset',
        'idempotent-replayed',
        'location',
        'retry-after',
        'x-request-id',
      ]),
    );
  });

  it('sets the allowed origin on error answers, GraphQL and the library family', async () => {
    const missing = await stack.fetch('/api/v1/nothing-here', { headers: { origin: APP } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP);
    const graphql = await stack.fetch('/graphql', {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ libraryHealth { status } }' }),
    });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const books = await stack.fetch('/v1/books', { headers: { origin: APP } });
    expect(books.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('lets a named origin through the MCP origin check', async () => {
    const response = await stack.fetch('/v1/mcp', {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).not.toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('gives an unknown origin no CORS headers, on preflights and on answers', async () => {
    const refused = await preflight(stack, '/api/v1/iam/users', STRANGER);
    expect(refused.status).not.toBe(204);
    expect(corsHeaders(refused)).toEqual([]);
    const answer = await stack.fetch('/api/v1/health/live', { headers: { origin: STRANGER } });
    expect(answer.status).toBe(200);
    expect(corsHeaders(answer)).toEqual([]);
    const graphql = await preflight(stack, '/graphql', STRANGER);
    expect(corsHeaders(graphql)).toEqual([]);
  });

  it('adds nothing to requests without an Origin', async () => {
    const response = await stack.fetch('/api/v1/health/live');
    expect(corsHeaders(response)).toEqual([]);
  });
});

describe('CORS with a wildcard', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ CORS_ORIGINS: `*, ${APP}` });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('admits any origin without credentials, and a named one with them', async () => {
    const any = await preflight(stack, '/api/v1/iam/users', STRANGER, 'PATCH');
    expect(any.status).toBe(204);
    expect(any.headers.get('access-control-allow-origin')).toBe('*');
    expect(any.headers.get('access-control-allow-credentials')).toBeNull();
    const answer = await stack.fetch('/v1/books', { headers: { origin: STRANGER } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    const named = await preflight(stack, '/api/v1/iam/users', APP);
    expect(named.headers.get('access-control-allow-origin')).toBe(APP);
    expect(named.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('does not widen the MCP origin check', async () => {
    const response = await preflight(stack, '/v1/mcp', STRANGER);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const call = await stack.fetch('/v1/mcp', {
      method: 'POST',
      headers: { origin: STRANGER, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(call.status).toBe(403);
  });
});
