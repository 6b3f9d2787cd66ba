import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allComplete,
  call,
  fundedWorkspace,
  grantCredits,
  readLedger,
  readUntil,
  runsSettled,
  startReadyCase,
  startResearchStack,
} from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/**
 * Credits: the billing record, reservations under concurrency, paid runs, reuse and refunds,
 * over real HTTP. This stack has no LLM, so the charging rules are proven with test keys (the
 * sandbox is always charged) and live turns and runs are free, with the ledger saying why.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startResearchStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** Each ledger movement's kind, delta and reason, oldest first. */
async function ledgerReasons(workspaceId: string, mode: 'live' | 'test') {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const result = await client.query(
      'select kind, delta, reason from research.credit_ledger where workspace_id = $1 and mode = $2 order by id',
      [workspaceId, mode],
    );
    return result.rows as Array<{ kind: string; delta: number; reason: string | null }>;
  } finally {
    await client.end();
  }
}

/** A case made ready by one message, its reply complete. */
async function readyCase(key: string): Promise<string> {
  const { threadId, view } = await startReadyCase(stack, key);
  expect(view.gapAssessment.readinessStatus).toBe('ready');
  return threadId;
}

describe('GET /v1/billing', () => {
  it('answers the Billing record exactly, with the balance of the key’s workspace', async () => {
    const workspace = await fundedWorkspace(stack, 'billing', 42);
    const billing = await call(stack, workspace.key, 'GET', '/v1/billing');
    expect(billing.status).toBe(200);
    expect(billing.body).toEqual({
      chatTurnBillingMode: 'fixed',
      chatTurnMaxReserveCredits: 1,
      creditBalance: 42,
      currency: 'usd',
      pricePer100CreditsUsd: 10,
      researchRunBillingMode: 'fixed',
      researchRunPriceCredits: 30,
      topUpEndpoint: `${stack.url}/v1/billing/top-ups`,
      topUpOptions: [
        { creditQuantity: 100, usdQuantity: 10 },
        { creditQuantity: 250, usdQuantity: 25 },
        { creditQuantity: 500, usdQuantity: 50 },
        { creditQuantity: 1000, usdQuantity: 100 },
      ],
      topUpScope: 'billing_write',
    });
  });

  it('keeps test credits apart from live ones', async () => {
    const live = await fundedWorkspace(stack, 'modes', 7);
    const testKey = await call(stack, live.adminKey, 'POST', '/v1/api-keys', { name: 't', scopes: ['billing_read'], mode: 'test' });
    expect((await call(stack, testKey.body.key, 'GET', '/v1/billing')).body.creditBalance).toBe(0);
    expect((await call(stack, live.key, 'GET', '/v1/billing')).body.creditBalance).toBe(7);
  });
});

describe('chat turns', () => {
  it('accepts exactly 10 of 50 concurrent turns on 10 credits, answers the rest 402, and keeps the ledger exact', async () => {
    const workspace = await fundedWorkspace(stack, 'concurrency', 10, 'test');
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, n) => call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: `Idea number ${n}.` })),
    );
    const accepted = replies.filter((reply) => reply.status === 202);
    const refused = replies.filter((reply) => reply.status === 402);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const reply of refused) expect(reply.body).toEqual({ error: expect.any(String), creditBalance: 0, requiredCredits: 1 });
    const ledger = await readLedger(stack, workspace.id, 'test');
    expect(ledger.balance).toBe(0);
    expect(ledger.rows[0]).toMatchObject({ kind: 'grant', delta: 10, balanceAfter: 10 });
    const reserves = ledger.rows.slice(1);
    expect(reserves.map((row) => row.kind)).toEqual(Array(10).fill('chat_reserve'));
    expect(reserves.map((row) => row.balanceAfter)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(new Set(reserves.map((row) => row.reference))).toEqual(new Set(accepted.map((reply) => reply.body.assistantMessage.id)));
    expect(ledger.rows.reduce((sum, row) => sum + row.delta, 0)).toBe(ledger.balance);
    // Successful turns settle their reservation: nothing comes back.
    for (const reply of accepted) await readUntil(stack, workspace.key, reply.body.thread.id, allComplete);
    expect((await readLedger(stack, workspace.id, 'test')).rows).toHaveLength(11);
  });

  it('never starts research from a chat route, even when the case is ready', async () => {
    const workspace = await fundedWorkspace(stack, 'no research', 20);
    const threadId = await readyCase(workspace.key);
    await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/messages`, { message: 'Competitors: Rover, Wag' });
    const view = await readUntil(stack, workspace.key, threadId, allComplete);
    expect(view.runs).toEqual([]);
    expect(view.gapAssessment.readinessStatus).toBe('ready');
    expect((await readLedger(stack, workspace.id)).rows.map((row) => row.kind)).toEqual(['grant', 'chat_reserve', 'chat_reserve']);
  });
  it('leaves no case, message or ledger entry and queues no turn when a first message is refused for credits', async () => {
    const workspace = await fundedWorkspace(stack, 'refused first message', 0, 'test');
    const queuedBefore = await queuedTurns();
    // The case and both messages are written before the reservation finds no credit: all of it is rolled back.
    const refused = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'An idea that cannot be paid for.' });
    expect(refused.status).toBe(402);
    expect(await rowsOf(workspace.id)).toEqual({ threads: 0, messages: 0, ledger: 0 });
    expect(await queuedTurns()).toBe(queuedBefore);
    // The same message with a credit is accepted and its turn queued: the count above would have seen one.
    await grantCredits(stack, workspace.id, 1, 'test');
    const accepted = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'An idea that cannot be paid for.' });
    expect(accepted.status).toBe(202);
    expect(await queuedTurns()).toBe(queuedBefore + 1);
  });
});

/** How many assistant turns were ever queued (BullMQ keeps its jobs in the service's database). */
async function queuedTurns(): Promise<number> {
  const [row] = await query<{ count: number }>(
    `select count(*)::int as "count" from bullmq.job where "queue" = 'research-assistant-turns'`,
  );
  return row!.count;
}

/** The workspace's cases, their messages and its ledger entries, counted. */
async function rowsOf(workspaceId: string) {
  const [row] = await query<{ threads: number; messages: number; ledger: number }>(
    `select (select count(*)::int from research.thread where workspace_id = $1) as "threads",
       (select count(*)::int from research.message m join research.thread t on t.id = m.thread_id where t.workspace_id = $1) as "messages",
       (select count(*)::int from research.credit_ledger where workspace_id = $1) as "ledger"`,
    [workspaceId],
  );
  return row;
}

async function query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('research runs', () => {
  it('charges once for two concurrent starts of the same case', async () => {
    const workspace = await fundedWorkspace(stack, 'two starts', 100, 'test');
    const threadId = await readyCase(workspace.key);
    const [first, second] = await Promise.all([
      call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {}),
      call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {}),
    ]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body.runId).toBe(second.body.runId);
    const charges = (await readLedger(stack, workspace.id, 'test')).rows.filter((row) => row.kind === 'research_charge');
    expect(charges).toEqual([{ kind: 'research_charge', delta: -30, balanceAfter: 69, reference: first.body.runId }]);
  });

  it('reuses an exactly matching report for free (200), runs again with force (202), and again when the anamnesis changed', async () => {
    const workspace = await fundedWorkspace(stack, 'reuse', 100, 'test');
    const threadId = await readyCase(workspace.key);
    const started = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      reused: false,
      runId: expect.stringMatching(/^run_/),
      run: { status: 'queued', creditsCharged: 30 },
      anamnesisSnapshot: { ideaSummary: expect.stringContaining('dog owners') },
      gapAssessment: { readinessStatus: 'ready' },
      reportStaleness: { isStale: false },
      thread: { id: threadId },
      report: null,
    });
    const done = await readUntil(stack, workspace.key, threadId, runsSettled);
    expect(done.runs[0]).toMatchObject({ id: started.body.runId, status: 'completed', reportId: done.thread.latestCompletedReportId });
    const reused = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(reused.status).toBe(200);
    expect(reused.body).toMatchObject({ reused: true, runId: started.body.runId, report: { id: done.thread.latestCompletedReportId } });
    expect((await readLedger(stack, workspace.id, 'test')).balance).toBe(100 - 1 - 30);
    const forced = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, { force: true });
    expect(forced.status).toBe(202);
    expect(forced.body.runId).not.toBe(started.body.runId);
    await readUntil(stack, workspace.key, threadId, (view) => runsSettled(view) && view.runs.length === 2);
    expect((await readLedger(stack, workspace.id, 'test')).balance).toBe(100 - 1 - 60);
    await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/messages`, { message: 'Platform: iOS' });
    const changed = await readUntil(stack, workspace.key, threadId, allComplete);
    expect(changed.reportStaleness).toEqual({ isStale: true, latestCompletedReportId: changed.thread.latestCompletedReportId });
    const again = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(again.status).toBe(202);
    expect(again.body.anamnesisSnapshot.platform).toBe('iOS');
  });

  it('answers 402 with the balance and the 30 credits a run needs, charging nothing', async () => {
    const workspace = await fundedWorkspace(stack, 'poor', 12, 'test');
    const threadId = await readyCase(workspace.key);
    const refused = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ error: expect.any(String), creditBalance: 11, requiredCredits: 30 });
    expect((await call(stack, workspace.key, 'GET', `/v1/chat/threads/${threadId}`)).body.runs).toEqual([]);
  });

  it('refuses research on a case with no idea yet (409) and an unknown case (404)', async () => {
    const workspace = await fundedWorkspace(stack, 'not ready', 50);
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'hello' });
    const view = await readUntil(stack, workspace.key, created.body.thread.id, allComplete);
    expect(view.gapAssessment.readinessStatus).toBe('needs_idea');
    const notReady = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${created.body.thread.id}/research-runs`, {});
    expect(notReady.status).toBe(409);
    expect(notReady.body.code).toBe('thread_not_ready');
    expect((await readLedger(stack, workspace.id)).rows.map((row) => row.kind)).toEqual(['grant', 'chat_reserve']);
    const unknown = await call(stack, workspace.key, 'POST', '/v1/chat/threads/thread_nope/research-runs', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('thread_not_found');
  });
});

describe('live mode without an LLM (the offline rules answer)', () => {
  it('charges nothing for a live turn and a live run, and the ledger says offline_assistant and offline_report', async () => {
    const workspace = await fundedWorkspace(stack, 'offline live', 5);
    const threadId = await readyCase(workspace.key);
    await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/messages`, { message: 'Platform: iOS' });
    await readUntil(stack, workspace.key, threadId, allComplete);
    const started = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ status: 'queued', creditsCharged: 0 });
    const done = await readUntil(stack, workspace.key, threadId, runsSettled);
    expect(done.runs[0]).toMatchObject({ id: started.body.runId, status: 'completed', creditsCharged: 0 });
    expect((await call(stack, workspace.key, 'GET', '/v1/billing')).body.creditBalance).toBe(5);
    expect(await ledgerReasons(workspace.id, 'live')).toEqual([
      { kind: 'grant', delta: 5, reason: 'test' },
      { kind: 'chat_reserve', delta: 0, reason: 'offline_assistant' },
      { kind: 'chat_reserve', delta: 0, reason: 'offline_assistant' },
      { kind: 'research_charge', delta: 0, reason: 'offline_report' },
    ]);
  });

  it('accepts a live turn and a live run on an empty balance instead of answering 402', async () => {
    const workspace = await fundedWorkspace(stack, 'offline empty', 0);
    const threadId = await readyCase(workspace.key);
    const started = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(started.status).toBe(202);
    expect((await readLedger(stack, workspace.id)).balance).toBe(0);
  });

  it('still charges test keys without an LLM: 1 credit a turn and 30 a run, no reason recorded', async () => {
    const workspace = await fundedWorkspace(stack, 'offline sandbox', 40, 'test');
    const threadId = await readyCase(workspace.key);
    await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    await readUntil(stack, workspace.key, threadId, runsSettled);
    expect((await call(stack, workspace.key, 'GET', '/v1/billing')).body.creditBalance).toBe(9);
    expect(await ledgerReasons(workspace.id, 'test')).toEqual([
      { kind: 'grant', delta: 40, reason: 'test' },
      { kind: 'chat_reserve', delta: -1, reason: null },
      { kind: 'research_charge', delta: -30, reason: null },
    ]);
  });
});
