import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../runtime/http/body.js';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { ADMIN_TOKEN } from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let subgraph: System;
beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
  subgraph = await startSystem(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ROLE: 'subgraph:operations', DATABASE_URL: stack.databaseUrl }),
    createLogger('silent'),
  );
});
afterAll(async () => {
  await subgraph?.stop();
  await stack?.stop();
});

/** `{"a":[[[…]]]}` with `levels` levels of nesting in all. */
const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe(`JSON bodies nested deeper than ${JSON_MAX_DEPTH} levels`, () => {
  it('are a 422 json_invalid in the admin shape on admin routes', async () => {
    const response = await post(`${stack.url}/admin/keys`, nested(10_000), { 'x-admin-token': ADMIN_TOKEN });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { detail: Array<{ type: string; ctx: { error: string } }> };
    expect(body.detail[0]?.type).toBe('json_invalid');
    expect(body.detail[0]?.ctx.error).toMatch(new RegExp(`nested deeper than ${JSON_MAX_DEPTH} levels`));
  });

  it('are a 422 invalid_json in the library shape on /v1', async () => {
    const response = await post(`${stack.url}/v1/register`, nested(10_000));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.message).toMatch(/nested deeper/);
  });

  it('are a 400 GraphQL error on /graphql, while one level less is parsed', async () => {
    const query = (levels: number) => `{"query":"{ __typename }","variables":${nested(levels - 1)}}`;
    const accepted = await post(`${stack.url}/graphql`, query(JSON_MAX_DEPTH));
    expect(accepted.status).toBe(200);
    const refused = await post(`${stack.url}/graphql`, query(JSON_MAX_DEPTH + 1));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      errors: [{ message: `request body is nested deeper than ${JSON_MAX_DEPTH} levels`, extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('are a 400 on a subgraph server, for GraphQL and for streams', async () => {
    for (const path of ['/graphql', '/streams/anything']) {
      const response = await post(`${subgraph.url}${path}`, nested(10_000));
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { errors: Array<{ message: string }> }).errors[0]?.message).toMatch(/nested deeper/);
    }
  });

  it('do not confuse brackets inside strings with nesting', async () => {
    const text = `{"query":"{ __typename }","variables":{"s":"${'[{'.repeat(5000)}\\"]"}}`;
    expect((await post(`${stack.url}/graphql`, text)).status).toBe(200);
  });
});
