import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPH_SECRET_HEADER } from '../../runtime/http/subgraph-secret.js';
import { startDistributed, type DistributedStack } from '../support/distributed.js';
import { ADMIN_TOKEN } from '../support/library-keys.js';

const SECRET = 'subgraph-secret-for-tests-0123456789';
let stack: DistributedStack;

beforeAll(async () => {
  stack = await startDistributed({ SUBGRAPH_SECRET: SECRET }, { ADMIN_TOKEN }, { SUBGRAPH_SECRET: SECRET });
});
afterAll(async () => {
  await stack?.stop();
});

const graphql = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ libraryHealth { status } }' }),
  });

describe('SUBGRAPH_SECRET', () => {
  it('makes a subgraph server refuse with 401 every request that does not carry it', async () => {
    const library = stack.subgraphs.library.url;
    const refused: Array<Record<string, string>> = [
      {},
      { [SUBGRAPH_SECRET_HEADER]: 'wrong-secret-wrong-secret' },
      { [SUBGRAPH_SECRET_HEADER]: `${SECRET}x` },
    ];
    for (const headers of refused) {
      const response = await graphql(library, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        errors: [{ message: 'this subgraph server answers only its gateway', extensions: { code: 'UNAUTHENTICATED' } }],
      });
    }
    const stream = await fetch(`${library}/streams/libraryChat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(stream.status).toBe(401);
    expect((await fetch(`${library}/health`)).status).toBe(401);
    expect((await fetch(`${library}/health`, { headers: { [SUBGRAPH_SECRET_HEADER]: SECRET } })).status).toBe(200);
  });

  it('lets the gateway through, for GraphQL and for streamed operations', async () => {
    const response = await graphql(stack.gateway.url);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { libraryHealth: { status: 'ok' } } });
    // The admin import is a streamed upload: it reaches the library's POST /streams/libraryImportFile.
    const line = JSON.stringify({
      book_id: 'secret-book',
      book: 'كتاب',
      authors: 'مؤلف',
      category: 'أدب',
      part: 'باب',
      page: 1,
      text: 'نص',
    });
    const imported = await fetch(`${stack.gateway.url}/admin/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-admin-token': ADMIN_TOKEN },
      body: `${line}\n`,
    });
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ book_id: 'secret-book', pages: 1 });
  });
});
