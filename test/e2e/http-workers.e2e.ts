import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase } from '../support/database.js';
import { awayFromMinuteEdge } from '../support/library-keys.js';
import { Deployment, RoleProcess } from '../support/processes.js';
import { allComplete, call, fundedWorkspace, READY_IDEA, readUntil, RESEARCH_ADMIN_TOKEN } from '../support/research.js';
import { wsUrl } from '../support/research-ws.js';
import type { TestStack } from '../support/stack.js';

/**
 * `main.ts` with `WEB_CONCURRENCY=2`: a primary and two HTTP workers on one port, each with its
 * gateway and subgraphs; the header `Qantara-Worker` names the worker that answered.
 */

interface Answer {
  readonly status: number;
  readonly worker: string | undefined;
  readonly text: string;
}

let deployment: Deployment;
let server: RoleProcess;
let drop: () => Promise<void>;

/** A request on a connection of its own (no keep-alive), so node:cluster hands each to the next worker. */
function fresh(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${server.url}${path}`, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, worker: response.headers['qantara-worker'] as string, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/** The pids of the workers serving now, from their latest `worker listening` lines, in worker order. */
function workerPids(): number[] {
  const latest = new Map<number, number>();
  for (const line of server.lines.filter((entry) => entry.includes('"msg":"worker listening"'))) {
    const { worker, pid } = JSON.parse(line) as { worker: number; pid: number };
    latest.set(worker, pid);
  }
  return [...latest.entries()].sort(([a], [b]) => a - b).map(([, pid]) => pid);
}

/**
 * The first line `of` writes that `matches`, waiting for it: a worker's start takes a while on busy
 * cores, and a worker's log line can reach the pipe after the primary's `listening`.
 */
async function untilLine(matches: (line: string) => boolean, of: RoleProcess = server, deadlineMs = 120_000): Promise<string> {
  for (const until = Date.now() + deadlineMs; Date.now() < until;) {
    const found = of.lines.find(matches);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no such line within ${deadlineMs} ms:\n${of.logs()}`);
}

/** The workers (`main.ts` processes) whose parent is `parent`, from /proc. */
function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === parent && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('main.ts');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  deployment = await Deployment.create(database.url, { ADMIN_TOKEN: RESEARCH_ADMIN_TOKEN, DEMO_RESEARCH: 'false' });
  server = (await deployment.start({ role: 'all', env: { WEB_CONCURRENCY: '2' } }))[0]!;
}, 240_000);

afterAll(async () => {
  await deployment?.stop();
  await drop?.();
});

describe('WEB_CONCURRENCY=2', () => {
  it('serves from both workers: connections are handed to worker 1 and worker 2 in turn', async () => {
    const answers: Answer[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) answers.push(await fresh('/api/v1/health/live'));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
    expect(new Set(workerPids()).size).toBe(2);
    expect(workerPids()).not.toContain(server.pid);
  });

  it('admits exactly 10 of 50 concurrent calls on a 10-per-minute key spread over both workers, and refuses 40 with 429', async () => {
    const created = await fresh('/admin/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
      body: JSON.stringify({ email: 'burst@example.org', plan: 'free' }),
    });
    expect(created.status).toBe(200);
    const { key, limits } = JSON.parse(created.text) as { key: string; limits: { rpm: number } };
    expect(limits.rpm).toBe(10);
    await awayFromMinuteEdge();
    const answers = await Promise.all(Array.from({ length: 50 }, () => fresh('/v1/me', { headers: { authorization: `Bearer ${key}` } })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
  });

  it('delivers to a subscription on each worker the event of a request served by either, made by the queue consumer of worker 1', async () => {
    const stack = { url: server.url, fetch: (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init) } as TestStack;
    const workspace = await fundedWorkspace(stack, 'across workers', 200, 'test');
    const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: READY_IDEA });
    const threadId = created.body.thread.id as string;
    await readUntil(stack, workspace.key, threadId, allComplete);

    // Two connections, one per worker: each socket notes the worker named on its upgrade answer.
    const upgradedBy: string[] = [];
    class NotingSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.once('upgrade', (response) => upgradedBy.push(String(response.headers['qantara-worker'])));
      }
    }
    const clients = [0, 1].map(() =>
      createClient({
        url: wsUrl(stack),
        webSocketImpl: NotingSocket,
        connectionParams: { authorization: `Bearer ${workspace.key}` },
        retryAttempts: 0,
        lazy: true,
      }),
    );
    const query = `subscription ($threadId: String!) { threadUpdated(threadId: $threadId, after: 0) { sequence type } }`;
    type Update = { threadUpdated: { sequence: number; type: string } };
    try {
      const iterators = clients.map((client) => client.iterate<Update>({ query, variables: { threadId } }));
      // The first reply is replayed to each; once both have it, both subscriptions are live.
      for (const iterator of iterators) {
        const first = await iterator.next();
        expect((first.value as { data: Update }).data.threadUpdated).toEqual({ sequence: 1, type: 'assistant_reply_completed' });
      }
      expect(new Set(upgradedBy)).toEqual(new Set(['1', '2']));
      const sent = await fresh(`/v1/chat/threads/${threadId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${workspace.key}` },
        body: JSON.stringify({ message: 'Competitors: Rover' }),
      });
      expect(sent.status).toBe(202);
      for (const iterator of iterators) {
        const next = await iterator.next();
        expect((next.value as { data: Update }).data.threadUpdated).toEqual({ sequence: 2, type: 'assistant_reply_completed' });
        await iterator.return?.();
      }
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });

  it('starts a worker that dies again, and both serve afterwards', async () => {
    const [, second] = workerPids();
    process.kill(second!, 'SIGKILL');
    const replaced = await untilLine(
      (line) => line.includes('"msg":"worker listening"') && line.includes('"worker":2') && !line.includes(`"pid":${second},`),
    );
    expect(
      server.lines.some((line) => line.includes('"msg":"worker 2 exited; starting it again"') && line.includes('"signal":"SIGKILL"')),
    ).toBe(true);
    expect(alive(second!)).toBe(false);
    expect(alive((JSON.parse(replaced) as { pid: number }).pid)).toBe(true);
    const answers: Answer[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) answers.push(await fresh('/api/v1/health/live'));
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
  }, 180_000);

  it('on SIGTERM drains every worker: in-flight requests on both are answered, the primary exits 0 and no worker is left', async () => {
    const pids = workerPids();
    expect(pids.every(alive)).toBe(true);
    // Two requests whose bodies are still arriving when SIGTERM comes, one per worker.
    const body = JSON.stringify({ query: '{ operationsHealth { status } }' });
    const inFlight = [0, 1].map(() => {
      const outgoing = request(`${server.url}/graphql`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      const answered = new Promise<Answer>((resolve, reject) => {
        outgoing.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, worker: response.headers['qantara-worker'] as string, text }),
          );
        });
        outgoing.on('error', reject);
      });
      outgoing.write(body.slice(0, 10));
      return {
        outgoing,
        answered,
        connected: new Promise((resolve) => outgoing.once('socket', (socket) => socket.once('connect', resolve))),
      };
    });
    await Promise.all(inFlight.map(({ connected }) => connected));
    // As in sigterm.e2e.ts: time for the primary to hand both connections to their workers and for them to read the headers.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const { outgoing } of inFlight) outgoing.end(body.slice(10));
    const answers = await Promise.all(inFlight.map(({ answered }) => answered));
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ data: { operationsHealth: { status: 'ok' } } });
    }
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
    await stopped;
    expect(server.exited).toEqual({ code: 0, signal: null });
    expect(pids.filter(alive)).toEqual([]);
    const stoppedLines = server.lines.filter((line) => line.includes('"msg":"stopped"'));
    expect(stoppedLines).toHaveLength(3);
  });

  it('fails the start with exit 1 and one line naming the worker when worker 1 cannot start, without starting it again', async () => {
    const unreachable = new RoleProcess({
      role: 'all',
      name: 'no-database',
      env: { ...deployment.env, WEB_CONCURRENCY: '2', DATABASE_URL: `${deployment.env.DATABASE_URL}_missing` },
    });
    await expect(unreachable.start()).rejects.toThrow('exited during start-up');
    expect(unreachable.exited).toEqual({ code: 1, signal: null });
    const failure = unreachable.lines.filter((line) => line.includes('start-up failed') && !line.includes('"worker"'));
    expect(failure).toHaveLength(1);
    expect(JSON.parse(failure[0]!)).toMatchObject({ level: 60, msg: 'start-up failed: worker 1 exited during start-up (exit 1)' });
    expect(unreachable.lines.some((line) => line.includes('"msg":"worker 1 exited; starting it again"'))).toBe(false);
  });

  it('stops everything with exit 1 and a fatal line when one worker keeps dying (five exits within a minute), not restarting it forever', async () => {
    const looping = deployment.define({ role: 'all', name: 'crash-loop', env: { WEB_CONCURRENCY: '2' } });
    await looping.start();
    const primary = looping.pid!;
    const listening = await untilLine((line) => line.includes('"worker":2') && line.includes('"msg":"worker listening"'), looping);
    const second = (JSON.parse(listening) as { pid: number }).pid;
    const first = childrenOf(primary).find((pid) => pid !== second)!;
    // Worker 2, then each process forked to replace it, killed as soon as it appears.
    const killed = new Set<number>();
    process.kill(second, 'SIGKILL');
    killed.add(second);
    for (const until = Date.now() + 120_000; looping.running && Date.now() < until;) {
      for (const pid of childrenOf(primary)) {
        if (pid === first || killed.has(pid)) continue;
        killed.add(pid);
        process.kill(pid, 'SIGKILL');
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(looping.exited).toEqual({ code: 1, signal: null });
    expect(killed.size).toBe(5);
    const fatal = looping.lines.filter((line) => line.includes('"level":60'));
    expect(fatal).toHaveLength(1);
    expect(JSON.parse(fatal[0]!)).toMatchObject({ worker: 2, msg: 'worker 2 is crash-looping (5 exits within 60 s): stopping' });
    expect(alive(first)).toBe(false);
  }, 240_000);
});
