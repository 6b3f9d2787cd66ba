import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allComplete, call, fundedWorkspace, READY_IDEA, readUntil, runsSettled, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/** The research service through GraphQL: the same operations, scopes and errors as REST. */

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;
let auth: Record<string, string>;
beforeAll(async () => {
  stack = await startResearchStack();
  workspace = await fundedWorkspace(stack, 'graphql', 100, 'test');
  auth = { authorization: `Bearer ${workspace.key}` };
});
afterAll(async () => {
  await stack?.stop();
});

const SEND = `mutation ($threadId: String, $message: String!) {
  researchSendMessage(threadId: $threadId, message: $message) {
    assistantMessage { id status } userMessage { status } gapAssessment { readinessStatus } thread { id messageCount }
  }
}`;

describe('GraphQL', () => {
  it('starts a case with researchSendMessage, continues it by threadId, and starts research explicitly', async () => {
    const first = await stack.graphql<{
      researchSendMessage: { thread: { id: string; messageCount: number }; assistantMessage: { status: string } };
    }>(SEND, { message: 'A planner for community gardens that shares tools between neighbours.' }, auth);
    expect(first.body.errors).toBeUndefined();
    const threadId = first.body.data!.researchSendMessage.thread.id;
    expect(first.body.data!.researchSendMessage).toMatchObject({ assistantMessage: { status: 'pending' }, thread: { messageCount: 2 } });
    const second = await stack.graphql<{ researchSendMessage: { thread: { id: string; messageCount: number } } }>(
      SEND,
      { threadId, message: READY_IDEA },
      auth,
    );
    expect(second.body.data!.researchSendMessage.thread).toEqual({ id: threadId, messageCount: 4 });
    await readUntil(stack, workspace.key, threadId, allComplete);
    const run = await stack.graphql<{ researchStartRun: { reused: boolean; run: { status: string } } }>(
      `mutation ($threadId: String!) { researchStartRun(threadId: $threadId) { reused run { status creditsCharged } } }`,
      { threadId },
      auth,
    );
    expect(run.body.data!.researchStartRun).toEqual({ reused: false, run: { status: 'queued', creditsCharged: 30 } });
    await readUntil(stack, workspace.key, threadId, runsSettled);
    const view = await stack.graphql<{ researchThread: unknown }>(
      `query ($threadId: String!) { researchThread(threadId: $threadId) { thread { id messageCount } runs { status } } }`,
      { threadId },
      auth,
    );
    expect(view.body.data!.researchThread).toEqual({ thread: { id: threadId, messageCount: 4 }, runs: [{ status: 'completed' }] });
    const rest = await call(stack, workspace.key, 'GET', `/v1/chat/threads/${threadId}`);
    expect(rest.body.runs.map((entry: { status: string }) => entry.status)).toEqual(['completed']);
  });

  it('answers errors with the service’s codes: 402 with the balance, 404 for a foreign case', async () => {
    const poor = await fundedWorkspace(stack, 'graphql poor', 0, 'test');
    const refused = await stack.graphql(SEND, { message: 'An idea with no credits behind it.' }, { authorization: `Bearer ${poor.key}` });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'insufficient_credits',
      http: { status: 402 },
      creditBalance: 0,
      requiredCredits: 1,
    });
    const missing = await stack.graphql(SEND, { threadId: 'thread_nope', message: 'Hello there friend.' }, auth);
    expect(missing.body.errors?.[0]?.extensions).toMatchObject({ code: 'thread_not_found', http: { status: 404 } });
  });

  it('manages keys: create with scopes, rotate, revoke', async () => {
    const admin = { authorization: `Bearer ${workspace.adminKey}` };
    const created = await stack.graphql<{ researchCreateApiKey: { id: string; key: string; scopes: string[] } }>(
      `mutation { researchCreateApiKey(name: "gql", scopes: [threads_read, billing_read]) { id key scopes mode } }`,
      {},
      admin,
    );
    expect(created.body.data!.researchCreateApiKey).toMatchObject({ scopes: ['billing_read', 'threads_read'], mode: 'test' });
    const { id, key } = created.body.data!.researchCreateApiKey;
    const rotated = await stack.graphql<{ researchRotateApiKey: { key: string } }>(
      `mutation { researchRotateApiKey(apiKeyId: "${id}") { key } }`,
      {},
      admin,
    );
    expect((await call(stack, key, 'GET', '/v1/ping')).status).toBe(401);
    const fresh = rotated.body.data!.researchRotateApiKey.key;
    expect((await call(stack, fresh, 'GET', '/v1/ping')).status).toBe(200);
    await stack.graphql(`mutation { researchRevokeApiKey(apiKeyId: "${id}") { status } }`, {}, admin);
    expect((await call(stack, fresh, 'GET', '/v1/ping')).body.code).toBe('api_key_revoked');
  });
});
