import { loadavg } from 'node:os';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { BENCH_ADMIN_TOKEN, ownServer, type OwnServer } from './harness.js';
import { table, type BenchModule } from './report.js';

const SECONDS = 10;

interface Target {
  readonly url: string;
  readonly key: string;
}

interface Turn {
  readonly accepted: number;
  completed?: number;
}

/** A research server of its own (see `ownServer`), with a funded test key (offline assistant). */
function startResearchServer(): Promise<OwnServer<Target>> {
  return ownServer('research', { DEMO_LIBRARY: 'false', DEMO_RESEARCH: 'false' }, async (url) => {
    const admin = { 'content-type': 'application/json', 'x-admin-token': BENCH_ADMIN_TOKEN };
    const created = (await (
      await fetch(`${url}/admin/research/workspaces`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'bench', mode: 'test' }),
      })
    ).json()) as { workspace: { id: string }; apiKey: { key: string } };
    await fetch(`${url}/admin/research/workspaces/${created.workspace.id}/credits`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ credits: 1_000_000, reason: 'bench', mode: 'test' }),
    });
    const issued = await fetch(`${url}/v1/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.apiKey.key}` },
      body: JSON.stringify({ name: 'bench', scopes: ['threads_read', 'threads_write'] }),
    });
    return { url, key: ((await issued.json()) as { key: string }).key };
  });
}

async function post(target: Target, path: string, message: string): Promise<{ threadId: string; messageId: string }> {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.key}` },
    body: JSON.stringify({ message }),
  });
  if (response.status !== 202) throw new Error(`chat answered ${response.status}`);
  const body = (await response.json()) as { thread: { id: string }; assistantMessage: { id: string } };
  return { threadId: body.thread.id, messageId: body.assistantMessage.id };
}

/** Watches a case and stamps each assistant reply when its `assistant_reply_completed` event arrives. */
function watch(client: Client, threadId: string, turns: Map<string, Turn>): () => void {
  return client.subscribe<{ threadUpdated: { type: string; message: { id: string } | null } }>(
    { query: 'subscription ($t: String!) { threadUpdated(threadId: $t) { type message { id } } }', variables: { t: threadId } },
    {
      next: ({ data }) => {
        const turn = data?.threadUpdated.message ? turns.get(data.threadUpdated.message.id) : undefined;
        if (turn && data?.threadUpdated.type === 'assistant_reply_completed') turn.completed ??= performance.now();
      },
      error: () => undefined,
      complete: () => undefined,
    },
  );
}

/** `clients` users, each on a case of their own, sending messages for `seconds`: when `waitEach`, each waits for the reply first. */
async function run(target: Target, clients: number, seconds: number, waitEach: boolean) {
  const ws = createClient({
    url: `${target.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${target.key}` },
  });
  const turns = new Map<string, Turn>();
  const stops: Array<() => void> = [];
  let accepted = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const opened = await post(target, '/v1/chat/threads', `Idea ${client}: a planner for small bakeries.`);
      stops.push(watch(ws, opened.threadId, turns));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the subscription is established
      for (let n = 0; performance.now() < until; n += 1) {
        const { messageId } = await post(
          target,
          `/v1/chat/threads/${opened.threadId}/messages`,
          `Monetization: plan ${n} at $9 per month.`,
        );
        const turn: Turn = { accepted: performance.now() };
        turns.set(messageId, turn);
        accepted += 1;
        while (waitEach && turn.completed === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }),
  );
  const deadline = performance.now() + 60_000;
  while ([...turns.values()].some((turn) => turn.completed === undefined) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stops.forEach((stop) => stop());
  await ws.dispose();
  const latencies = [...turns.values()].filter((turn) => turn.completed !== undefined).map((turn) => turn.completed! - turn.accepted);
  return { accepted, perSecond: Math.round(accepted / seconds), latencies, lost: turns.size - latencies.length };
}

function percentile(values: readonly number[], p: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN).toFixed(1);
}

async function researchChat(): Promise<string> {
  const target = await startResearchServer();
  try {
    await run(target, 4, 2, false); // warm-up
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ');
    const rows: Array<Array<string | number>> = [];
    for (const [clients, waitEach] of [
      [1, true],
      [8, true],
      [8, false],
    ] as const) {
      const result = await run(target, clients, SECONDS, waitEach);
      rows.push([
        clients,
        waitEach ? 'waits for each reply' : 'sends without waiting',
        result.perSecond,
        percentile(result.latencies, 50),
        percentile(result.latencies, 99),
        result.lost,
      ]);
    }
    return [
      '`POST /v1/chat/threads/:id/messages` with a test key (offline assistant, sandbox credits), each client on a case of its',
      'own; the server runs in its own process on an embedded PostgreSQL on the same machine, the queue on the PostgreSQL',
      'backend of BullMQ (4 concurrent turns per process). "Accept → reply" is from the 202 reaching the client to the',
      '`assistant_reply_completed` event of that message reaching it over graphql-ws (`threadUpdated`), so it includes the queue,',
      `the turn, the commit and the feed's LISTEN/NOTIFY. ${SECONDS} s per run after a 2 s warm-up; latencies in ms.`,
      `Load average when the runs started: ${load} (shared machine).`,
      '',
      table(['clients', 'mode', 'accepted turns/s', 'accept → reply p50', 'p99', 'replies not seen'], rows),
    ].join('\n');
  } finally {
    await target.stop();
  }
}

export const researchChatBench: BenchModule = {
  name: 'research-chat',
  title: 'Research: accepted chat turns per second and accept → complete assistant reply (offline)',
  run: researchChat,
};
