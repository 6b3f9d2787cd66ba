import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminKey } from '../support/library-keys.js';
import { adminImport } from '../support/library-stack.js';
import { fundedWorkspace, startResearchStack } from '../support/research.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * MCP tools run only on arguments their `inputSchema` accepts: a value of the wrong type,
 * `1e309` or a string for an integer is refused as a tool error (`isError`) naming the
 * argument as the schema names it — even where the REST route is lenient about it.
 */

type ToolResult = CallToolResult & { structuredContent: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function connect(stack: TestStack, path: string, key: string, clients: Client[]): Promise<Client> {
  const client = new Client({ name: 'qantara-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.url}${path}`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

/** A `tools/call` sent as raw JSON text, for numbers JSON.stringify cannot write (`1e309`). */
async function rawToolCall(stack: TestStack, path: string, key: string, json: string): Promise<ToolResult> {
  const response = await stack.fetch(path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${json}}`,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: ToolResult }).result;
}

describe('library tools (/v1/mcp)', () => {
  let stack: TestStack;
  let key: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startStack({ ADMIN_TOKEN });
    expect((await adminImport(stack, 'pages')).status).toBe(200);
    key = (await adminKey(stack, 'unlimited')).key;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stack?.stop();
  });

  it.each([
    ['books', { limit: 'x' }, 'limit'],
    ['books', { limit: null }, 'limit'],
    ['books', { limit: 2.5 }, 'limit'],
    ['books', { offset: 'abc' }, 'offset'],
    ['books', { withParts: 'yes' }, 'withParts'],
    ['books', { withParts: 1 }, 'withParts'],
    ['authors', { limit: 'x' }, 'limit'],
    ['authors', { limit: [5] }, 'limit'],
    ['table_of_contents', { book: 'adab', limit: 'all' }, 'limit'],
    ['search', { q: 'الصبر', limit: 'x' }, 'limit'],
    ['search', { q: 'الصبر', maxChars: '600' }, 'maxChars'],
    ['read_page', { id: 'adab-sabr-1', html: 'true' }, 'html'],
  ])('%s %j is a tool error naming %s', async (tool, args, argument) => {
    const client = await connect(stack, '/v1/mcp', key, clients);
    const result = await callTool(client, tool, args);
    expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'invalid_parameter', param: argument });
    expect(result.structuredContent.details).toEqual([expect.objectContaining({ field: argument })]);
  });

  it('books {"limit": 1e309} is a tool error naming limit', async () => {
    const result = await rawToolCall(stack, '/v1/mcp', key, '{"name":"books","arguments":{"limit":1e309}}');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
  });

  it('names an argument as the input schema names it (maxChars, not the REST max_chars)', async () => {
    const client = await connect(stack, '/v1/mcp', key, clients);
    const result = await callTool(client, 'retrieve', { q: 'الصبر', maxChars: 5 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.details.map((detail: { field: string }) => detail.field)).toEqual(['maxChars']);
  });

  it('runs on arguments the schema accepts, the lenient ones included', async () => {
    const client = await connect(stack, '/v1/mcp', key, clients);
    const result = await callTool(client, 'books', { limit: 1, offset: 0, withParts: true });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ limit: 1, returned: 1 });
  });
});

describe('research tools (/mcp)', () => {
  let stack: TestStack;
  let key: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startResearchStack();
    key = (await fundedWorkspace(stack, 'mcp-arguments', 100, 'test')).key;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stack?.stop();
  });

  it.each([
    ['send_message', { message: 42 }, 'message'],
    ['send_message', { message: 'An idea.', threadId: 7 }, 'threadId'],
    ['start_research', { threadId: 'thread_any', force: 'yes' }, 'force'],
  ])('%s %j is a tool error naming %s', async (tool, args, argument) => {
    const client = await connect(stack, '/mcp', key, clients);
    const result = await callTool(client, tool, args);
    expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
    expect(result.structuredContent.details).toEqual([expect.objectContaining({ field: argument })]);
  });

  it('send_message {"message": 1e309} is a tool error naming message', async () => {
    const result = await rawToolCall(stack, '/mcp', key, '{"name":"send_message","arguments":{"message":1e309}}');
    expect(result.isError).toBe(true);
    expect(result.structuredContent.details).toEqual([expect.objectContaining({ field: 'message' })]);
  });
});
