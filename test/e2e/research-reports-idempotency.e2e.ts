import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyLock } from '../../subgraphs/shared/idempotency.js';
import { demoEmail, OPERATIONS_ENV } from '../support/operations.js';
import {
  allComplete,
  call,
  fundedWorkspace,
  READY_IDEA,
  readLedger,
  readUntil,
  runsSettled,
  startReadyCase,
  startResearchStack,
  type Reply,
} from '../support/research.js';
import type { TestStack } from '../support/stack.js';
import { signInWithConsoleClient, type SignedIn } from '../support/workspace-sign-in.js';

/**
 * Research writes with `Idempotency-Key` (one case, one charge per key), `Location` on every
 * 202, and the full report of a run on the key API, the workspace API, GraphQL and MCP, with
 * the MCP tools that read and wait for a case's reply — over real HTTP.
 */

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;
let person: SignedIn;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startResearchStack({ ...OPERATIONS_ENV, RESEARCH_WELCOME_CREDITS: '200' });
  // Test keys: the assistant and research runs use the offline providers.
  workspace = await fundedWorkspace(stack, 'idempotency', 1000, 'test');
  person = await signInWithConsoleClient(stack, demoEmail('Engineer'));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await stack?.stop();
});

/** A POST with a bearer credential and, when given, an `Idempotency-Key`. */
async function post(bearer: string, path: string, body: unknown, key?: string): Promise<Reply> {
  const response = await stack.fetch(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${bearer}`,
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined, text, headers: response.headers };
}

const kinds = async (kind: string, workspaceId = workspace.id, mode: 'live' | 'test' = 'test') =>
  (await readLedger(stack, workspaceId, mode)).rows.filter((row) => row.kind === kind).length;

describe('Idempotency-Key on research writes (key API)', () => {
  it('a retried create-thread with the same key answers the same 202 and opens one case with one credit reserved', async () => {
    const before = (await call(stack, workspace.key, 'GET', '/v1/chat/threads?limit=100')).body.items.length;
    const reservesBefore = await kinds('chat_reserve');
    const key = randomUUID();
    const first = await post(workspace.key, '/v1/chat/threads', { message: 'A planner for shared allotments.' }, key);
    const retried = await post(workspace.key, '/v1/chat/threads', { message: 'A planner for shared allotments.' }, key);
    expect(first.status).toBe(202);
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual(first.body);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const after = (await call(stack, workspace.key, 'GET', '/v1/chat/threads?limit=100')).body.items.length;
    expect(after).toBe(before + 1);
    expect(await kinds('chat_reserve')).toBe(reservesBefore + 1);
  });

  it('another body with a used key is refused with 422 idempotency_key_reused and changes nothing', async () => {
    const key = randomUUID();
    const first = await post(workspace.key, '/v1/chat/threads', { message: 'A ledger for tool libraries.' }, key);
    expect(first.status).toBe(202);
    const before = (await call(stack, workspace.key, 'GET', '/v1/chat/threads?limit=100')).body.items.length;
    const other = await post(workspace.key, '/v1/chat/threads', { message: 'Something else entirely.' }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect((await call(stack, workspace.key, 'GET', '/v1/chat/threads?limit=100')).body.items.length).toBe(before);
  });

  it('a request whose key another request still holds is refused with 409 idempotency_key_in_flight and Retry-After', async () => {
    const key = randomUUID();
    const holder = new pg.Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    try {
      const lock = idempotencyLock({ table: '"research"."idempotency_key"' }, [workspace.id, 'test', 'researchCreateThread', key]);
      await holder.query('select pg_advisory_lock($1::bigint)', [lock]);
      const busy = await post(workspace.key, '/v1/chat/threads', { message: 'A rota for shared kitchens.' }, key);
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('idempotency_key_in_flight');
      expect(busy.headers.get('retry-after')).toBe('1');
      await holder.query('select pg_advisory_unlock($1::bigint)', [lock]);
      expect((await post(workspace.key, '/v1/chat/threads', { message: 'A rota for shared kitchens.' }, key)).status).toBe(202);
    } finally {
      await holder.end();
    }
  });

  it('a key that is not a UUID v4 is refused with 400 idempotency_key_invalid', async () => {
    const refused = await post(workspace.key, '/v1/chat/threads', { message: 'A bad key.' }, 'not-a-uuid');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('idempotency_key_invalid');
  });

  it('a retried append with the same key adds the message once and reserves one credit', async () => {
    const created = await post(workspace.key, '/v1/chat/threads', { message: 'A booking app for climbing gyms.' });
    const threadId = created.body.thread.id as string;
    const reservesBefore = await kinds('chat_reserve');
    const key = randomUUID();
    const path = `/v1/chat/threads/${threadId}/messages`;
    const first = await post(workspace.key, path, { message: 'Target users: climbers in cities.' }, key);
    const retried = await post(workspace.key, path, { message: 'Target users: climbers in cities.' }, key);
    expect(first.status).toBe(202);
    expect(retried.status).toBe(202);
    expect(retried.body.userMessage.id).toBe(first.body.userMessage.id);
    const view = await readUntil(stack, workspace.key, threadId, allComplete);
    expect(view.messages).toHaveLength(4);
    expect(await kinds('chat_reserve')).toBe(reservesBefore + 1);
    const other = await post(workspace.key, path, { message: 'Target users: everyone.' }, key);
    expect(other.status).toBe(422);
  });

  it('a retried research start with the same key queues one run and charges 30 credits once', async () => {
    const { threadId } = await startReadyCase(stack, workspace.key);
    const chargesBefore = await kinds('research_charge');
    const key = randomUUID();
    const path = `/v1/chat/threads/${threadId}/research-runs`;
    const first = await post(workspace.key, path, { force: true }, key);
    const retried = await post(workspace.key, path, { force: true }, key);
    expect(first.status).toBe(202);
    expect(retried.status).toBe(202);
    expect(retried.body.runId).toBe(first.body.runId);
    expect(retried.headers.get('location')).toBe(first.headers.get('location'));
    const view = await readUntil(stack, workspace.key, threadId, runsSettled);
    expect(view.runs).toHaveLength(1);
    expect(await kinds('research_charge')).toBe(chargesBefore + 1);
    expect((await post(workspace.key, path, { force: false }, key)).status).toBe(422);
  });

  it('the research OpenAPI documents the Idempotency-Key header and the 202 Location on the research writes', async () => {
    const document = (await call(stack, null, 'GET', '/.well-known/openapi.json')).body;
    for (const path of ['/v1/chat/threads', '/v1/chat/threads/{threadId}/messages', '/v1/chat/threads/{threadId}/research-runs']) {
      const parameters = document.paths[path].post.parameters as Array<{ name: string; in: string; required?: boolean }>;
      expect(parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
      expect(document.paths[path].post.responses['202'].headers.Location).toMatchObject({ schema: { type: 'string', format: 'uri' } });
    }
  });
});

describe('Location on 202 and the full report (key API)', () => {
  it('create and append answer 202 with the case to poll in Location', async () => {
    const created = await post(workspace.key, '/v1/chat/threads', { message: 'A swap market for board games.' });
    const threadId = created.body.thread.id as string;
    expect(created.headers.get('location')).toBe(`${stack.url}/v1/chat/threads/${threadId}`);
    const appended = await post(workspace.key, `/v1/chat/threads/${threadId}/messages`, { message: 'Problem: games gather dust.' });
    expect(appended.status).toBe(202);
    expect(appended.headers.get('location')).toBe(`${stack.url}/v1/chat/threads/${threadId}`);
    const polled = await call(stack, workspace.key, 'GET', new URL(appended.headers.get('location')!).pathname);
    expect(polled.status).toBe(200);
    expect(polled.body.thread.id).toBe(threadId);
  });

  it('a started run answers 202 with its report route in Location, which serves the full structured report once completed', async () => {
    const { threadId } = await startReadyCase(stack, workspace.key);
    const started = await post(workspace.key, `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(started.status).toBe(202);
    const location = started.headers.get('location')!;
    expect(location).toBe(`${stack.url}/v1/chat/threads/${threadId}/research-runs/${started.body.runId}`);
    await readUntil(stack, workspace.key, threadId, runsSettled);
    const read = await call(stack, workspace.key, 'GET', new URL(location).pathname);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ threadId, run: { id: started.body.runId, status: 'completed' } });
    const report = read.body.report;
    expect(report.runId).toBe(started.body.runId);
    expect(report.reportJson).toEqual(
      expect.objectContaining({
        verdict: expect.any(String),
        main_risk: expect.any(String),
        why_it_can_fly: expect.any(Array),
        risk_map: expect.objectContaining({ demand: expect.objectContaining({ level: expect.any(String) }) }),
        competitors: expect.any(Array),
      }),
    );
    expect(report.summaryText).toContain(report.reportJson.verdict);
    // Provider, model, token counts and request ids stay stored only.
    expect(Object.keys(report).sort()).toEqual(['completedAt', 'createdAt', 'id', 'reportJson', 'runId', 'summaryText']);
    // A reused report answers 200 with nothing to poll.
    const reused = await post(workspace.key, `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(reused.status).toBe(200);
    expect(reused.headers.get('location')).toBeNull();
  });

  it('a run id of no run of the case answers 404 run_not_found; a key without threads_read is refused', async () => {
    const { threadId } = await startReadyCase(stack, workspace.key);
    const missing = await call(stack, workspace.key, 'GET', `/v1/chat/threads/${threadId}/research-runs/run_nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('run_not_found');
    const noScope = await call(stack, workspace.adminKey, 'GET', `/v1/chat/threads/${threadId}/research-runs/run_nope`);
    expect(noScope.status).toBe(403);
  });

  it('GraphQL researchRunReport serves the same full report', async () => {
    const { threadId } = await startReadyCase(stack, workspace.key);
    const started = await post(workspace.key, `/v1/chat/threads/${threadId}/research-runs`, {});
    await readUntil(stack, workspace.key, threadId, runsSettled);
    const rest = await call(stack, workspace.key, 'GET', `/v1/chat/threads/${threadId}/research-runs/${started.body.runId}`);
    const graph = await stack.graphql<{ researchRunReport: { run: { status: string }; report: { reportJson: Record<string, unknown> } } }>(
      `query ($threadId: String!, $runId: String!) {
        researchRunReport(threadId: $threadId, runId: $runId) {
          run { status }
          report { reportJson { verdict confidence mainRisk whyItCanFly riskMap { demand { level reason } appStore { level } } competitors { appName appStoreLink } } }
        }
      }`,
      { threadId, runId: started.body.runId },
      { authorization: `Bearer ${workspace.key}` },
    );
    expect(graph.body.errors).toBeUndefined();
    const json = rest.body.report.reportJson;
    expect(graph.body.data!.researchRunReport).toEqual({
      run: { status: 'completed' },
      report: {
        reportJson: {
          verdict: json.verdict,
          confidence: json.confidence,
          mainRisk: json.main_risk,
          whyItCanFly: json.why_it_can_fly,
          riskMap: { demand: json.risk_map.demand, appStore: { level: json.risk_map.app_store.level } },
          competitors: json.competitors.map((competitor: { app_name: string; app_store_link: string }) => ({
            appName: competitor.app_name,
            appStoreLink: competitor.app_store_link,
          })),
        },
      },
    });
  });
});

describe('the workspace API (/api/chat) for a signed-in user', () => {
  it('idempotent create and start, Location on both 202s, and the full report on the run route', async () => {
    const token = person.accessToken;
    const key = randomUUID();
    const first = await post(token, '/api/chat/threads', { message: READY_IDEA }, key);
    const retried = await post(token, '/api/chat/threads', { message: READY_IDEA }, key);
    expect(first.status).toBe(202);
    expect(retried.body).toEqual(first.body);
    const threadId = first.body.thread.id as string;
    expect(first.headers.get('location')).toBe(`${stack.url}/api/chat/threads/${threadId}`);
    const listed = (await call(stack, token, 'GET', '/api/chat/threads?limit=100')).body.items;
    expect(listed.filter((item: { id: string }) => item.id === threadId)).toHaveLength(1);
    expect(listed).toHaveLength(1);
    await readUntil(stack, token, threadId, allComplete, 30_000, '/api/chat/threads');
    const runKey = randomUUID();
    const started = await post(token, `/api/chat/threads/${threadId}/research-runs`, {}, runKey);
    const again = await post(token, `/api/chat/threads/${threadId}/research-runs`, {}, runKey);
    expect(started.status).toBe(202);
    expect(again.body.runId).toBe(started.body.runId);
    const location = started.headers.get('location')!;
    expect(location).toBe(`${stack.url}/api/chat/threads/${threadId}/research-runs/${started.body.runId}`);
    await readUntil(stack, token, threadId, runsSettled, 30_000, '/api/chat/threads');
    const read = await call(stack, token, 'GET', new URL(location).pathname);
    expect(read.status).toBe(200);
    expect(read.body.report.reportJson.verdict).toEqual(expect.any(String));
    const view = (await call(stack, token, 'GET', `/api/chat/threads/${threadId}`)).body;
    expect(view.runs).toHaveLength(1);
  });
});

describe('MCP: get_thread, wait_for_reply and the research run resource', () => {
  async function connect(): Promise<Client> {
    const client = new Client({ name: 'qantara-tests', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${workspace.key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  type ToolResult = CallToolResult & { structuredContent: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('lists the new tools and the research run resource template', async () => {
    const client = await connect();
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['get_thread', 'wait_for_reply', 'send_message', 'start_research']));
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates.some((uri) => uri.endsWith('/chat/threads/{threadId}/research-runs/{runId}'))).toBe(true);
  });

  it('wait_for_reply returns the case once the pending reply is written; get_thread shows it as the latest reply', async () => {
    const client = await connect();
    const sent = (await client.callTool({ name: 'send_message', arguments: { message: READY_IDEA } })) as ToolResult;
    const threadId = sent.structuredContent.thread.id as string;
    expect(sent.structuredContent.assistantMessage.status).toBe('pending');
    const waited = (await client.callTool({ name: 'wait_for_reply', arguments: { threadId, timeoutSeconds: 30 } })) as ToolResult;
    expect(waited.isError).toBeFalsy();
    expect(waited.structuredContent.assistantPending).toBe(false);
    expect(waited.structuredContent.latestReply).toMatchObject({
      id: sent.structuredContent.assistantMessage.id,
      role: 'assistant',
      status: 'complete',
    });
    expect(waited.structuredContent.latestReply.content).not.toBe(sent.structuredContent.assistantMessage.content);
    const got = (await client.callTool({ name: 'get_thread', arguments: { threadId } })) as ToolResult;
    expect(got.structuredContent.latestReply).toEqual(waited.structuredContent.latestReply);
    expect(got.structuredContent.messages).toHaveLength(2);
  });

  it('wait_for_reply refuses a timeout above 30 seconds and answers at once when nothing is pending', async () => {
    const client = await connect();
    const sent = (await client.callTool({ name: 'send_message', arguments: { message: 'An app for lost gloves.' } })) as ToolResult;
    const threadId = sent.structuredContent.thread.id as string;
    const tooLong = (await client
      .callTool({ name: 'wait_for_reply', arguments: { threadId, timeoutSeconds: 31 } })
      .catch((error: unknown) => ({ isError: true, error }))) as { isError?: boolean };
    expect(tooLong.isError).toBe(true);
    await readUntil(stack, workspace.key, threadId, allComplete);
    const began = Date.now();
    const settled = (await client.callTool({ name: 'wait_for_reply', arguments: { threadId, timeoutSeconds: 30 } })) as ToolResult;
    expect(settled.structuredContent.assistantPending).toBe(false);
    expect(Date.now() - began).toBeLessThan(5_000);
  });

  it('the research run resource holds the full report of a completed run', async () => {
    const client = await connect();
    const { threadId } = await startReadyCase(stack, workspace.key);
    const started = (await client.callTool({ name: 'start_research', arguments: { threadId, force: true } })) as ToolResult;
    const runId = started.structuredContent.runId as string;
    await readUntil(stack, workspace.key, threadId, runsSettled);
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    const template = templates.find((entry) => entry.uriTemplate.endsWith('/research-runs/{runId}'))!.uriTemplate;
    const uri = template.replace('{threadId}', threadId).replace('{runId}', runId);
    const { contents } = await client.readResource({ uri });
    const body = JSON.parse((contents[0] as { text: string }).text);
    const rest = await call(stack, workspace.key, 'GET', `/v1/chat/threads/${threadId}/research-runs/${runId}`);
    expect(body).toEqual(rest.body);
    expect(body.report.reportJson.verdict).toEqual(expect.any(String));
  });
});
