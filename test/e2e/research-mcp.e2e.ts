import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESEARCH_CONTRACTS } from '../../contracts/research/index.js';
import { mcpTools } from '../../edge/mcp-tools.js';
import {
  allComplete,
  call,
  createKey,
  createWorkspace,
  fundedWorkspace,
  READY_IDEA,
  readUntil,
  runsSettled,
  startResearchStack,
} from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/**
 * The research MCP endpoint driven by the MCP SDK's own client over streamable HTTP,
 * with the same keys as REST: tools, resources, scopes, credits, the 401 challenge,
 * the Origin allow-list and the methods a stateless endpoint refuses.
 */

const ALLOWED_ORIGIN = 'https://console.example.org';

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startResearchStack({ MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN });
  // Test keys: the assistant and research runs use the offline providers.
  workspace = await fundedWorkspace(stack, 'mcp', 1000, 'test');
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await stack?.stop();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'qantara-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type ToolResult = CallToolResult & { structuredContent: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  // The text content is the same JSON as the structured content, for clients that read only text.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result;
}

async function readJson(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text);
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('POST /mcp with a research key', () => {
  it('initializes: server name, instructions, tools and resources', async () => {
    const client = await connect(workspace.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'qantara/research', title: 'Qantara research' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain('send_message');
  });

  it('lists send_message, start_research, get_thread and wait_for_reply with the input schemas of their contracts', async () => {
    const client = await connect(workspace.key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_thread', 'send_message', 'start_research', 'wait_for_reply']);
    for (const declared of mcpTools(RESEARCH_CONTRACTS)) {
      const listed = tools.find((tool) => tool.name === declared.name)!;
      expect(listed.inputSchema).toEqual(declared.inputSchema);
      expect(listed.description).toBe(declared.description);
    }
    expect(tools.find((tool) => tool.name === 'send_message')!.inputSchema).toMatchObject({ required: ['message'] });
  });

  it('send_message starts a case without threadId and continues it with one, returning the snapshot at once, research idle', async () => {
    const client = await connect(workspace.key);
    const first = await callTool(client, 'send_message', { message: 'An app for dog owners to book sitters.' });
    expect(first.isError).toBeFalsy();
    const threadId = first.structuredContent.thread.id as string;
    expect(first.structuredContent).toMatchObject({
      thread: { id: expect.stringMatching(/^thread_/), messageCount: 2 },
      userMessage: { role: 'user', status: 'complete', content: 'An app for dog owners to book sitters.' },
      assistantMessage: { role: 'assistant', status: 'pending' },
      anamnesis: expect.any(Object),
      gapAssessment: expect.any(Object),
    });
    await readUntil(stack, workspace.key, threadId, allComplete);
    const second = await callTool(client, 'send_message', { threadId, message: READY_IDEA });
    expect(second.structuredContent.thread).toMatchObject({ id: threadId, messageCount: 4 });
    const settled = await readUntil(stack, workspace.key, threadId, allComplete);
    // However ready the case is, sending a message never starts research.
    expect(settled.runs).toEqual([]);
  });

  it('start_research queues a run, then returns the matching completed report at once without charging', async () => {
    const client = await connect(workspace.key);
    const created = await callTool(client, 'send_message', { message: READY_IDEA });
    const threadId = created.structuredContent.thread.id as string;
    await readUntil(stack, workspace.key, threadId, allComplete);
    const started = await callTool(client, 'start_research', { threadId });
    expect(started.structuredContent).toMatchObject({
      reused: false,
      runId: expect.stringMatching(/^run_/),
      thread: { id: threadId },
      report: null,
      anamnesisSnapshot: expect.any(Object),
    });
    const done = await readUntil(stack, workspace.key, threadId, runsSettled);
    expect(done.runs[0]).toMatchObject({ id: started.structuredContent.runId, status: 'completed' });
    const balance = (await call(stack, workspace.key, 'GET', '/v1/billing')).body.creditBalance as number;
    const reused = await callTool(client, 'start_research', { threadId, force: false });
    expect(reused.structuredContent).toMatchObject({
      reused: true,
      runId: started.structuredContent.runId,
      report: { id: done.thread.latestCompletedReportId },
    });
    expect((await call(stack, workspace.key, 'GET', '/v1/billing')).body.creditBalance).toBe(balance);
  });

  it('answers invalid tool input with a tool error in the contract’s words', async () => {
    const client = await connect(workspace.key);
    const result = await callTool(client, 'send_message', { message: '' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(result.structuredContent.details).toEqual([expect.objectContaining({ field: 'message' })]);
  });
});

describe('MCP resources', () => {
  it('lists billing and the case list under {api_url}, and the case and research run templates', async () => {
    const client = await connect(workspace.key);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([`${stack.url}/billing`, `${stack.url}/chat/threads`]);
    expect(resources.every((resource) => resource.mimeType === 'application/json')).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: `${stack.url}/chat/threads/{threadId}`, name: 'thread', mimeType: 'application/json' }),
      expect.objectContaining({
        uriTemplate: `${stack.url}/chat/threads/{threadId}/research-runs/{runId}`,
        name: 'research_run',
        mimeType: 'application/json',
      }),
    ]);
  });

  it('reads the billing resource as GET /v1/billing answers it', async () => {
    const client = await connect(workspace.key);
    const billing = await readJson(client, `${stack.url}/billing`);
    expect(billing).toEqual((await call(stack, workspace.key, 'GET', '/v1/billing')).body);
    expect(billing).toMatchObject({ creditBalance: expect.any(Number), topUpEndpoint: `${stack.url}/v1/billing/top-ups` });
  });

  it('reads the case list and one case through the template, as the REST routes answer them', async () => {
    const client = await connect(workspace.key);
    const created = await callTool(client, 'send_message', { message: 'A marketplace for used lab equipment.' });
    const threadId = created.structuredContent.thread.id as string;
    const view = await readUntil(stack, workspace.key, threadId, allComplete);
    const list = await readJson(client, `${stack.url}/chat/threads`);
    expect(list.items.map((item: { id: string }) => item.id)).toContain(threadId);
    expect(list).toHaveProperty('nextCursor');
    expect(await readJson(client, `${stack.url}/chat/threads/${threadId}`)).toEqual(view);
  });

  it('refuses an unknown case or address as resource not found (-32002)', async () => {
    const client = await connect(workspace.key);
    const missing = await refusal(client.readResource({ uri: `${stack.url}/chat/threads/thread_nothing` }));
    expect(missing.code).toBe(-32002);
    expect(missing.data).toMatchObject({ code: 'thread_not_found' });
    expect((await refusal(client.readResource({ uri: `${stack.url}/elsewhere` }))).code).toBe(-32002);
  });
});

describe('credits, scopes and keys', () => {
  it('answers send_message without credits with a tool error {code, message} pointing to the billing resource', async () => {
    const empty = await createWorkspace(stack, 'no credits', 'test');
    const key = await createKey(stack, empty.adminKey, ['threads_write', 'billing_read'], 'test');
    const client = await connect(key);
    const result = await callTool(client, 'send_message', { message: 'An idea.' });
    expect(result.isError).toBe(true);
    expect(Object.keys(result.structuredContent).sort()).toEqual(['code', 'message']);
    expect(result.structuredContent.code).toBe('insufficient_credits');
    expect(result.structuredContent.message).toContain(`${stack.url}/billing`);
    expect((await call(stack, key, 'GET', '/v1/chat/threads')).status).toBe(403);
  });

  it('refuses a tool and a resource the key has no scope for, naming the scope, and serves those it has', async () => {
    const key = await createKey(stack, workspace.adminKey, ['threads_read'], 'test');
    const client = await connect(key);
    const tool = await callTool(client, 'send_message', { message: 'An idea.' });
    expect(tool.isError).toBe(true);
    expect(tool.structuredContent).toMatchObject({ code: 'insufficient_scope', requiredScope: 'threads_write' });
    const research = await callTool(client, 'start_research', { threadId: 'thread_any' });
    expect(research.structuredContent).toMatchObject({ code: 'insufficient_scope', requiredScope: 'research_write' });
    const billing = await refusal(client.readResource({ uri: `${stack.url}/billing` }));
    expect(billing.code).toBe(-32003);
    expect(billing.data).toMatchObject({ code: 'insufficient_scope', requiredScope: 'billing_read' });
    expect(await readJson(client, `${stack.url}/chat/threads`)).toMatchObject({ items: expect.any(Array) });
  });

  it('answers 401 with WWW-Authenticate pointing to the protected resource metadata, with no key or a bad one', async () => {
    const metadata = `${stack.url}/.well-known/oauth-protected-resource/mcp`;
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      stack.fetch('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}"`);
    expect(await missing.json()).toMatchObject({ code: 'missing_api_key' });
    const bad = await post({ authorization: 'Bearer rk_test_not-a-key' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", error="invalid_token"`);
    const revoked = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', {
      name: 'soon revoked',
      scopes: ['threads_read'],
      mode: 'test',
    });
    expect((await post({ authorization: `Bearer ${revoked.body.key}` })).status).toBe(200);
    expect((await call(stack, workspace.adminKey, 'POST', `/v1/api-keys/${revoked.body.id}/revoke`)).status).toBe(200);
    expect((await post({ authorization: `Bearer ${revoked.body.key}` })).status).toBe(401);
    const sdk = await connect('rk_test_not-a-key').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(sdk).toBeInstanceOf(StreamableHTTPError);
    expect((sdk as StreamableHTTPError).code).toBe(401);
  });
});

describe('HTTP rules of the endpoint', () => {
  const ping = (headers: Record<string, string>) =>
    stack.fetch('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${workspace.key}`,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    });

  it('refuses a browser Origin that is not allowed with 403, and serves an allowed one with CORS headers', async () => {
    const refused = await ping({ origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    const allowed = await ping({ origin: ALLOWED_ORIGIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(await allowed.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    // The server's own origin is allowed too (a page it serves may call it).
    expect((await ping({ origin: stack.url })).status).toBe(200);
  });

  it('answers GET and DELETE with 405 and Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await stack.fetch('/mcp', {
        method,
        headers: { accept: 'text/event-stream', authorization: `Bearer ${workspace.key}` },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.headers.get('mcp-session-id')).toBeNull();
    }
  });
});
