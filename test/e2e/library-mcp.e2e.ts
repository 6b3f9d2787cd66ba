import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_CONTRACTS } from '../../contracts/library/index.js';
import { mcpTools } from '../../edge/mcp-tools.js';
import { ADMIN_TOKEN, adminKey, adminPost } from '../support/library-keys.js';
import { getWithKey, startLibraryStack } from '../support/library-stack.js';
import type { TestStack } from '../support/stack.js';

/**
 * The library over MCP (`/v1/mcp`) with the MCP SDK's client: every tool answers what its
 * REST route answers, with the same key and quota — each tool call is one metered call,
 * the protocol's own messages none.
 */

let stack: TestStack;
let key: string;
const clients: Client[] = [];
const BAGHDAD = '0280.IbnTayfur.Baghdad';

beforeAll(async () => {
  ({ stack, key } = await startLibraryStack());
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await stack?.stop();
});

/** A connected client, and the headers of the last HTTP response it received. */
async function connect(bearer: string): Promise<{ client: Client; last: () => Headers }> {
  let headers = new Headers();
  const client = new Client({ name: 'qantara-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.url}/v1/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST') headers = response.headers;
      return response;
    },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, last: () => headers };
}

type ToolResult = CallToolResult & { structuredContent: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

async function callsToday(keyId: number): Promise<number> {
  const response = await stack.fetch('/admin/stats', { headers: { 'x-admin-token': ADMIN_TOKEN } });
  const stats = (await response.json()) as { top_keys: Array<{ id: number; calls_today: number }> };
  return stats.top_keys.find((entry) => entry.id === keyId)?.calls_today ?? 0;
}

describe('POST /v1/mcp with a library key', () => {
  it('initializes and lists the eight tools with the input schemas of their contracts', async () => {
    const { client } = await connect(key);
    expect(client.getServerVersion()).toMatchObject({ name: 'qantara/library' });
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    const { tools } = await client.listTools();
    const declared = mcpTools(LIBRARY_CONTRACTS);
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['authors', 'book', 'books', 'categories', 'read_page', 'retrieve', 'search', 'table_of_contents'].sort(),
    );
    for (const tool of tools) {
      const contract = declared.find((entry) => entry.name === tool.name)!;
      expect(tool.inputSchema).toEqual(contract.inputSchema);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    }
  });

  it.each([
    ['retrieve', { q: 'الصبر مفتاح الفرج', limit: 3 }, '/v1/retrieve', { q: 'الصبر مفتاح الفرج', limit: 3 }],
    ['retrieve', { q: 'المأمون بغداد', pageText: true, maxChars: 120 }, '/v1/retrieve', { q: 'المأمون بغداد', page: 1, max_chars: 120 }],
    ['search', { q: 'دجلة', limit: 2 }, '/v1/search', { q: 'دجلة', limit: 2 }],
    ['read_page', { id: `${BAGHDAD}-2` }, '/v1/page', { id: `${BAGHDAD}-2` }],
    ['read_page', { id: 'nothing-9' }, '/v1/page', { id: 'nothing-9' }],
    ['book', { id: BAGHDAD }, '/v1/book', { id: BAGHDAD }],
    ['table_of_contents', { book: BAGHDAD, limit: 5 }, '/v1/toc', { book: BAGHDAD, limit: 5 }],
    ['books', { q: 'بغداد' }, '/v1/books', { q: 'بغداد' }],
    ['books', { q: 'بغداد', withParts: true }, '/v1/books', { q: 'بغداد', with_parts: 1 }],
    ['books', { q: 'بغداد', withParts: true }, '/v1/books', { q: 'بغداد', with_parts: 1 }],
    ['authors', { limit: 3 }, '/v1/authors', { limit: 3 }],
    ['categories', {}, '/v1/categories', {}],
  ] as const)('%s %j answers the body of GET %s', async (tool, args, path, query) => {
    const { client } = await connect(key);
    const result = await call(client, tool, args);
    expect(result.isError).toBeFalsy();
    const rest = await getWithKey(stack, key, path, query);
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(rest.body);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(rest.body);
  });

  it('refuses invalid arguments as the REST route does, as a tool error, without counting the call', async () => {
    const issued = await adminKey(stack);
    const { client } = await connect(issued.key);
    const result = await call(client, 'retrieve', { q: 'ا', maxChars: 5 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'invalid_parameter', param: expect.any(String) });
    expect(result.structuredContent.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['maxChars', 'q']);
    expect(await callsToday(issued.id)).toBe(0);
  });
});

describe('quota', () => {
  it('counts each tool call once against the key’s quota and the protocol’s own messages not at all', async () => {
    const issued = await adminKey(stack);
    expect((await adminPost(stack, `/admin/keys/${issued.id}/rpd`, { rpd: 3 })).status).toBe(200);
    const { client, last } = await connect(issued.key);
    await client.listTools();
    await client.ping();
    expect(await callsToday(issued.id)).toBe(0);
    expect(last().get('x-quota-limit')).toBe('3');
    expect(last().get('x-quota-remaining')).toBe('3');
    for (let made = 1; made <= 3; made += 1) {
      const result = await call(client, 'categories', {});
      expect(result.isError).toBeFalsy();
      expect(last().get('x-quota-remaining')).toBe(String(3 - made));
    }
    expect(await callsToday(issued.id)).toBe(3);
    const refused = await call(client, 'retrieve', { q: 'الصبر' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'quota_exceeded', retryAfter: expect.any(Number) });
    expect(last().get('x-quota-remaining')).toBe('0');
    const usage = await getWithKey(stack, key, '/v1/usage');
    expect(usage.status).toBe(200);
    expect(await callsToday(issued.id)).toBe(3);
  });
});

describe('authentication', () => {
  const initialize = (headers: Record<string, string>) =>
    stack.fetch('/v1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      }),
    });

  it('answers 401 in the library’s error shape to a missing or unknown key, pointing to the resource metadata', async () => {
    const missing = await initialize({});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: { message: expect.any(String), type: 'authentication_error', code: 'missing_api_key', param: null, details: null },
    });
    const metadata = `${stack.url}/.well-known/oauth-protected-resource/v1/mcp`;
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}"`);
    const unknown = await initialize({ authorization: 'Bearer qk_live_not-a-real-key' });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect(unknown.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", error="invalid_token"`);
    const sdk = await connect('qk_live_not-a-real-key').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(sdk).toBeInstanceOf(StreamableHTTPError);
    expect((sdk as StreamableHTTPError).code).toBe(401);
  });
});
