import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_LIMITS } from '../../gateway/limits.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

interface GraphQLErrorBody {
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

async function post(query: string, operationName?: string): Promise<{ status: number; body: GraphQLErrorBody }> {
  const response = await stack.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, operationName }),
  });
  return { status: response.status, body: (await response.json()) as GraphQLErrorBody };
}

describe('POST /graphql answers client errors with 400 and a clear message', () => {
  it('a syntax error is a 400 GRAPHQL_PARSE_FAILED naming the syntax error', async () => {
    const { status, body } = await post('query { ');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(body.errors?.[0]?.message).toMatch(/^Syntax Error: Expected Name, found <EOF>/);
  });

  it('a document past the token limit is a 400 naming the limit', async () => {
    const fields = Array.from({ length: GATEWAY_LIMITS.maxTokens }, () => '__typename').join(' ');
    const { status, body } = await post(`{ ${fields} }`);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(body.errors?.[0]?.message).toMatch(new RegExp(`^Syntax Error: Token limit of ${GATEWAY_LIMITS.maxTokens} exceeded`));
  });

  it('two anonymous operations in one document are a 400 GRAPHQL_VALIDATION_FAILED', async () => {
    const { status, body } = await post('{ __typename } { __typename }');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors?.[0]?.message).toMatch(/anonymous operation/i);
  });

  it('two named operations without an operationName are a 400 OPERATION_RESOLUTION_FAILURE, not a 500', async () => {
    const { status, body } = await post('query A { __typename } query B { __typename }');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(body.errors?.[0]?.message).toBe('Must provide operation name if query contains multiple operations.');
  });

  it('an operationName the document does not contain is a 400 naming it', async () => {
    const { status, body } = await post('query A { __typename } query B { __typename }', 'C');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(body.errors?.[0]?.message).toBe('Unknown operation named "C".');
  });

  it('the operationName picks one of several operations', async () => {
    const { status, body } = await post('query A { __typename } query B { __typename }', 'B');
    expect(status).toBe(200);
    expect(body).toEqual({ data: { __typename: 'Query' } });
  });

  it('a subscription before the schema has a subscription type is a 400 naming it', async () => {
    const { status, body } = await post('subscription { __typename }');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors?.[0]?.message).toMatch(/subscription/i);
  });
});
