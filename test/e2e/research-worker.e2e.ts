import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allComplete, call, fundedWorkspace, readUntil } from '../support/research.js';
import { startResearchDeployment, type ResearchDeployment } from '../support/research-distributed.js';
import { collect, wsClient } from '../support/research-ws.js';

/** Deployed by role: subgraph servers only queue turns, `ROLE=worker` processes answer them; subscriptions reach the gateway. */

let deployment: ResearchDeployment;
beforeAll(async () => {
  deployment = await startResearchDeployment();
});
afterAll(async () => {
  await deployment?.stop();
});

describe('queue consumers by role', () => {
  it('leaves a turn waiting on the queue while only subgraph servers run, and a ROLE=worker process answers it', async () => {
    const { gateway } = deployment;
    const workspace = await fundedWorkspace(gateway, 'by role', 10, 'test');
    const created = await call(gateway, workspace.key, 'POST', '/v1/chat/threads', {
      message: 'A tool that plans weekly meals for families.',
    });
    expect(created.status).toBe(202);
    const threadId = created.body.thread.id as string;
    const health = await gateway.graphql<{ researchHealth: { components: Array<{ name: string; detail: string }> } }>(
      '{ researchHealth { components { name detail } } }',
    );
    const queues = health.body.data!.researchHealth.components.find((component) => component.name === 'queues');
    expect(queues?.detail).toContain('turns: 1 waiting, 0 active');
    const client = wsClient(gateway, { authorization: `Bearer ${workspace.key}` });
    try {
      const events = await collect<{ threadUpdated: { type: string; message: { id: string } } }>(
        client,
        'subscription ($threadId: String!) { threadUpdated(threadId: $threadId) { type message { id } } }',
        { threadId },
        (seen) => seen.length === 1,
        async () => void (await deployment.startWorker()),
      );
      expect(events).toEqual([{ threadUpdated: { type: 'assistant_reply_completed', message: { id: created.body.assistantMessage.id } } }]);
    } finally {
      await client.dispose();
    }
    const view = await readUntil(gateway, workspace.key, threadId, allComplete);
    expect(view.messages[1].content).toMatch(/^\[Offline assistant/);
  });
});
