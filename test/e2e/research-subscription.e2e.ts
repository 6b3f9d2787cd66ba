import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allComplete,
  call,
  fundedWorkspace,
  READY_IDEA,
  readUntil,
  runsSettled,
  startReadyCase,
  startResearchStack,
} from '../support/research.js';
import { collect, connectOutcome, wsClient } from '../support/research-ws.js';
import type { TestStack } from '../support/stack.js';

/** `threadUpdated` over graphql-ws: the key checked at connect, a case's events in order, resumable by sequence. */

const THREAD_UPDATED = `subscription ($threadId: String!, $after: Int) {
  threadUpdated(threadId: $threadId, after: $after) {
    sequence threadId type occurredAt
    message { id role status content }
    run { id status refunded }
    gapAssessment { readinessStatus }
    reportStaleness { isStale }
  }
}`;

interface Event {
  threadUpdated: {
    sequence: number;
    type: string;
    message: { id: string; status: string } | null;
    run: { id: string; status: string } | null;
  };
}

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;
beforeAll(async () => {
  stack = await startResearchStack();
  workspace = await fundedWorkspace(stack, 'subscriptions', 200, 'test');
});
afterAll(async () => {
  await stack?.stop();
});

describe('connecting', () => {
  it('acknowledges a connection with a valid key, and closes one without a key or with a bad one (4403)', async () => {
    expect(await connectOutcome(stack, { authorization: `Bearer ${workspace.key}` })).toBe('ack');
    expect(await connectOutcome(stack, { headers: { Authorization: `Bearer ${workspace.key}` } })).toBe('ack');
    expect(await connectOutcome(stack, {})).toBe(4403);
    expect(await connectOutcome(stack, { authorization: `Bearer rk_test_${'0'.repeat(43)}` })).toBe(4403);
  });
});

describe('threadUpdated', () => {
  it('delivers the assistant’s replies and the run’s status changes in order, with increasing sequence numbers', async () => {
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: READY_IDEA });
    const threadId = created.body.thread.id as string;
    const client = wsClient(stack, { authorization: `Bearer ${workspace.key}` });
    try {
      const events = await collect<Event>(
        client,
        THREAD_UPDATED,
        { threadId },
        (seen) => seen.some((event) => event.threadUpdated.type === 'run_completed'),
        async () => {
          await readUntil(stack, workspace.key, threadId, allComplete);
          await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/messages`, { message: 'Competitors: Rover' });
          await readUntil(stack, workspace.key, threadId, allComplete);
          expect((await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {})).status).toBe(202);
        },
      );
      const updates = events.map((event) => event.threadUpdated);
      expect(updates.map((update) => update.type)).toEqual([
        'assistant_reply_completed',
        'assistant_reply_completed',
        'run_queued',
        'run_running',
        'run_completed',
      ]);
      expect(updates.map((update) => update.sequence)).toEqual([1, 2, 3, 4, 5]);
      expect(updates[0]).toMatchObject({ threadId, message: { id: created.body.assistantMessage.id, status: 'complete' }, run: null });
      expect(new Set(updates.slice(2).map((update) => update.run!.id)).size).toBe(1);
      // Resuming after the second event replays exactly what followed it.
      const resumed = await collect<Event>(client, THREAD_UPDATED, { threadId, after: 2 }, (seen) => seen.length === 3);
      expect(resumed.map((event) => event.threadUpdated.sequence)).toEqual([3, 4, 5]);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a case of another workspace as not found, and a key without threads_read as forbidden', async () => {
    const other = await fundedWorkspace(stack, 'someone else', 5, 'test');
    const theirs = await call(stack, other.key, 'POST', '/v1/chat/threads', { message: 'Their secret idea about boats.' });
    const client = wsClient(stack, { authorization: `Bearer ${workspace.key}` });
    const narrow = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', {
      name: 'billing only',
      scopes: ['billing_read'],
      mode: 'test',
    });
    const narrowClient = wsClient(stack, { authorization: `Bearer ${narrow.body.key}` });
    try {
      const notFound = await collect(client, THREAD_UPDATED, { threadId: theirs.body.thread.id }, () => true).catch(
        (error: { errors?: unknown }) => error.errors,
      );
      expect(notFound).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'thread_not_found' }) })]);
      const forbidden = await collect(narrowClient, THREAD_UPDATED, { threadId: theirs.body.thread.id }, () => true).catch(
        (error: { errors?: unknown }) => error.errors,
      );
      expect(forbidden).toEqual([
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'insufficient_scope', requiredScope: 'threads_read' }) }),
      ]);
    } finally {
      await client.dispose();
      await narrowClient.dispose();
    }
  });

  it('serves only subscriptions over WebSocket', async () => {
    const client = wsClient(stack, { authorization: `Bearer ${workspace.key}` });
    try {
      const refused = await collect(client, '{ researchPing { ok } }', {}, () => true).catch(
        (error: { errors?: Array<{ message: string }> }) => error.errors,
      );
      expect(refused).toEqual([expect.objectContaining({ message: expect.stringContaining('only subscriptions') })]);
    } finally {
      await client.dispose();
    }
  });

  it('catches up through researchThreadEvents with the same events', async () => {
    const { threadId } = await startReadyCase(stack, workspace.key);
    await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    await readUntil(stack, workspace.key, threadId, runsSettled);
    const read = await stack.graphql<{ researchThreadEvents: Array<{ sequence: number; type: string }> }>(
      `{ researchThreadEvents(threadId: "${threadId}", after: 1) { sequence type } }`,
      {},
      { authorization: `Bearer ${workspace.key}` },
    );
    expect(read.body.data?.researchThreadEvents).toEqual([
      { sequence: 2, type: 'run_queued' },
      { sequence: 3, type: 'run_running' },
      { sequence: 4, type: 'run_completed' },
    ]);
  });
});
