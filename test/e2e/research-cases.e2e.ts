import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allComplete,
  call,
  fundedWorkspace,
  READY_IDEA,
  readLedger,
  readUntil,
  runsSettled,
  startResearchStack,
} from '../support/research.js';
import {
  LEAKY_MODEL,
  LEAKY_PROMPT_TOKENS,
  LEAKY_REQUEST_ID,
  LLM_ANAMNESIS,
  LLM_REPORT,
  startFakeLlm,
  type FakeLlm,
} from '../support/research-upstreams.js';
import type { TestStack } from '../support/stack.js';

/**
 * Cases over real HTTP: the 202 snapshot, the asynchronous assistant (offline, and an
 * OpenAI-compatible upstream with structured output on loopback), the safe views,
 * refunds of failed turns and runs.
 */

let stack: TestStack;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
  stack = await startResearchStack({ LLM_BASE_URL: llm.url, LLM_MODEL: 'configured-model' });
});
afterAll(async () => {
  await stack?.stop();
  await llm?.close();
});

describe('a case with the offline assistant (test keys)', () => {
  it('accepts a message with 202: the user message complete, the assistant pending, the snapshot blocks', async () => {
    const workspace = await fundedWorkspace(stack, 'offline', 10, 'test');
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', {
      message: 'An app that helps freelancers track invoices.',
    });
    expect(created.status).toBe(202);
    expect(Object.keys(created.body).sort()).toEqual([
      'anamnesis',
      'assistantMessage',
      'gapAssessment',
      'reportStaleness',
      'thread',
      'userMessage',
    ]);
    expect(created.body.assistantMessage).toEqual({
      id: expect.stringMatching(/^msg_/),
      role: 'assistant',
      content: 'The assistant is reading your message…',
      status: 'pending',
      createdAt: expect.any(String),
    });
    expect(created.body.userMessage).toMatchObject({
      role: 'user',
      status: 'complete',
      content: 'An app that helps freelancers track invoices.',
    });
    expect(created.body.anamnesis).toHaveProperty('ideaSummary');
    expect(created.body.gapAssessment).toHaveProperty('readinessStatus');
    expect(created.body.reportStaleness).toEqual({ isStale: false, latestCompletedReportId: null });
    expect(created.body.thread).toMatchObject({
      id: expect.stringMatching(/^thread_/),
      latestCompletedReportId: null,
      messageCount: 2,
      reports: [],
    });
    const view = await readUntil(stack, workspace.key, created.body.thread.id, allComplete);
    const reply = view.messages[1];
    expect(reply.id).toBe(created.body.assistantMessage.id);
    expect(reply.content).toMatch(/^\[Offline assistant: built-in rules, no AI model\]/);
    expect(view.anamnesis.ideaSummary).toBe('An app that helps freelancers track invoices.');
    expect(view.gapAssessment).toMatchObject({
      readinessStatus: 'needs_details',
      missingFields: ['targetUsers', 'problem', 'monetization'],
    });
    expect(view.gapAssessment.nextQuestion).toBe('Who exactly would use it, and who pays?');
  });

  it('appends a message with the refreshed snapshot, and becomes ready once every required field is known', async () => {
    const workspace = await fundedWorkspace(stack, 'append', 10, 'test');
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'Idea: invoices for freelancers' });
    await readUntil(stack, workspace.key, created.body.thread.id, allComplete);
    const appended = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${created.body.thread.id}/messages`, {
      message: READY_IDEA,
    });
    expect(appended.status).toBe(202);
    expect(appended.body.thread.messageCount).toBe(4);
    expect(appended.body.anamnesis.ideaSummary).toBe('invoices for freelancers');
    const view = await readUntil(stack, workspace.key, created.body.thread.id, allComplete);
    expect(view.gapAssessment).toMatchObject({ readinessStatus: 'ready', missingFields: [], nextQuestion: null });
    expect(view.anamnesis).toMatchObject({
      monetization: '15% commission per booking',
      problem: 'finding a trusted sitter on short notice is hard',
    });
  });

  it('lists safe summaries of the workspace’s cases, newest activity first, with a cursor', async () => {
    const workspace = await fundedWorkspace(stack, 'list', 10, 'test');
    const ids: string[] = [];
    for (const message of [
      'First idea about gardening tools.',
      'Second idea about cooking classes.',
      'Third idea about language tutors.',
    ]) {
      const id = (await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message })).body.thread.id as string;
      // The reply is activity too: each case settles before the next begins, so the order is known.
      await readUntil(stack, workspace.key, id, allComplete);
      ids.push(id);
    }
    const first = await call(stack, workspace.key, 'GET', '/v1/chat/threads?limit=2');
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
    expect(Object.keys(first.body.items[0]).sort()).toEqual(
      ['assistantPending', 'createdAt', 'id', 'latestCompletedReportId', 'messageCount', 'readinessStatus', 'title', 'updatedAt'].sort(),
    );
    const second = await call(stack, workspace.key, 'GET', `/v1/chat/threads?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    const other = await fundedWorkspace(stack, 'other list', 0, 'test');
    expect((await call(stack, other.key, 'GET', '/v1/chat/threads')).body.items).toEqual([]);
    expect((await call(stack, other.key, 'GET', `/v1/chat/threads/${ids[0]}`)).status).toBe(404);
  });

  it('refuses a message that is empty or too long with 422 and its field', async () => {
    const workspace = await fundedWorkspace(stack, 'bad input', 10, 'test');
    for (const message of ['   ', 'x'.repeat(8001)]) {
      const refused = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message });
      expect(refused.status).toBe(422);
      expect(refused.body.details[0].field).toBe('message');
    }
    expect((await readLedger(stack, workspace.id, 'test')).rows).toHaveLength(1);
  });
});

describe('a case with an OpenAI-compatible upstream (live keys)', () => {
  /** A live workspace with `credits`, and a case whose first turn the upstream has answered: ready for research. */
  async function answeredCase(name: string, credits: number) {
    const workspace = await fundedWorkspace(stack, name, credits);
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'Dog sitters on demand.' });
    const threadId = created.body.thread.id as string;
    await readUntil(stack, workspace.key, threadId, allComplete);
    return { workspace, threadId };
  }

  it('asks for structured output and applies the reply and the anamnesis it returns', async () => {
    llm.mode = 'ok';
    const workspace = await fundedWorkspace(stack, 'llm', 100);
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'Dog sitters on demand.' });
    const view = await readUntil(stack, workspace.key, created.body.thread.id, allComplete);
    expect(view.messages[1].content).toBe('Thanks! Everything research needs is here; start a run when you want the report.');
    expect(view.anamnesis).toEqual(LLM_ANAMNESIS);
    expect(view.gapAssessment.readinessStatus).toBe('ready');
    const request = llm.requests.find((entry) => entry.schema === 'assistant_turn')!;
    expect(request.body).toMatchObject({
      model: 'configured-model',
      response_format: { type: 'json_schema', json_schema: { name: 'assistant_turn', strict: true } },
    });
    expect(JSON.stringify(request.body.messages)).toContain('Dog sitters on demand.');
  });

  it('never shows report JSON, provider or model metadata, token counts or request ids in any view', async () => {
    llm.mode = 'ok';
    const { workspace, threadId } = await answeredCase('leaks', 100);
    const started = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    const done = await readUntil(stack, workspace.key, threadId, runsSettled);
    expect(done.runs[0].status).toBe('completed');
    expect(done.thread.reports[0]).toEqual({
      id: done.thread.latestCompletedReportId,
      runId: started.body.runId,
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      summaryText: expect.stringContaining(LLM_REPORT.verdict),
    });
    const auth = { authorization: `Bearer ${workspace.key}` };
    const bodies = [
      JSON.stringify(done),
      (await call(stack, workspace.key, 'GET', '/v1/chat/threads')).text,
      (await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {})).text,
      (await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/messages`, { message: 'More.' })).text,
      JSON.stringify(
        (
          await stack.graphql(
            `{ researchThread(threadId: "${threadId}") { thread { reports { id summaryText } } messages { content } runs { id status } } }`,
            {},
            auth,
          )
        ).body,
      ),
      JSON.stringify(
        (await stack.graphql(`{ researchThreadEvents(threadId: "${threadId}") { type message { content } run { id status } } }`, {}, auth))
          .body,
      ),
    ];
    const secrets = [
      LEAKY_MODEL,
      LEAKY_REQUEST_ID,
      String(LEAKY_PROMPT_TOKENS),
      'openai-compatible',
      'configured-model',
      'risk_map',
      'why_it_can_fly',
      'cheapest_test',
      'prompt_tokens',
      'report_json',
      'Rover dominates',
    ];
    for (const body of bodies) for (const secret of secrets) expect(body, secret).not.toContain(secret);
  });

  it('charges a live turn 1 credit and a live run 30 when an LLM is configured', async () => {
    llm.mode = 'ok';
    const { workspace, threadId } = await answeredCase('paid live', 100);
    const started = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(started.body.run).toMatchObject({ status: 'queued', creditsCharged: 30 });
    expect((await readUntil(stack, workspace.key, threadId, runsSettled)).runs[0].status).toBe('completed');
    expect((await call(stack, workspace.key, 'GET', '/v1/billing')).body.creditBalance).toBe(69);
    expect((await readLedger(stack, workspace.id)).rows.map((row) => [row.kind, row.delta])).toEqual([
      ['grant', 100],
      ['chat_reserve', -1],
      ['research_charge', -30],
    ]);
  });

  it('refunds the credit of a turn the upstream keeps failing, and says so in the reply', async () => {
    llm.mode = 'fail-turns';
    const workspace = await fundedWorkspace(stack, 'failing turn', 5);
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'Anything at all here.' });
    const view = await readUntil(stack, workspace.key, created.body.thread.id, allComplete);
    llm.mode = 'ok';
    expect(view.messages[1].content).toMatch(/could not answer.*refunded/);
    const ledger = await readLedger(stack, workspace.id);
    expect(ledger.rows.map((row) => [row.kind, row.delta])).toEqual([
      ['grant', 5],
      ['chat_reserve', -1],
      ['chat_refund', 1],
    ]);
    expect(ledger.balance).toBe(5);
  });

  it('refunds a research run that fails, once, and reports it failed', async () => {
    llm.mode = 'ok';
    const { workspace, threadId } = await answeredCase('failing run', 100);
    llm.mode = 'fail-research';
    const started = await call(stack, workspace.key, 'POST', `/v1/chat/threads/${threadId}/research-runs`, {});
    expect(started.status).toBe(202);
    const done = await readUntil(stack, workspace.key, threadId, runsSettled);
    llm.mode = 'ok';
    expect(done.runs[0]).toMatchObject({
      id: started.body.runId,
      status: 'failed',
      refunded: true,
      reportId: null,
      failure: expect.stringContaining('refunded'),
    });
    const ledger = await readLedger(stack, workspace.id);
    expect(ledger.rows.filter((row) => row.reference === started.body.runId).map((row) => [row.kind, row.delta])).toEqual([
      ['research_charge', -30],
      ['research_refund', 30],
    ]);
    expect(ledger.balance).toBe(99);
    expect(llm.requests.filter((entry) => entry.schema === 'research_report').length).toBeGreaterThanOrEqual(2);
  });
});
