import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import pg from 'pg';
import { call, login, SUPER_ADMIN } from '../support/operations.js';
import { collect, wsClient } from '../support/research-ws.js';
import { sagaStatus, settleSaga, type SagaStatusBody } from '../support/sagas.js';
import { createLogger } from '../../runtime/logger.js';
import { SAGA_STEPS } from '../../subgraphs/operations/sagas/engine.js';
import { QueueHub } from '../../subgraphs/shared/queues/queue-hub.js';

/**
 * The saga engine through the asset-decommission saga: steps as queue jobs, progress over
 * REST and graphql-ws, failures retried then compensated in reverse order, dead letters
 * listed, retried (the saga runs again and completes once the cause is gone) and deleted.
 * Failures are real: the test adds a database constraint a step's write breaks, then drops it.
 */

let actors: Actors;
let classId: string;

async function newAsset(): Promise<string> {
  const created = await actors.act('Engineer', 'POST', '/api/v1/eam/assets', {
    inventoryNumber: `SG-${String(Math.floor(Math.random() * 90000) + 10000)}`,
    name: 'Saga rig',
    assetClassId: classId,
    currentObjectId: actors.north,
    commissionedAt: '2025-01-01',
    passport: {},
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function startDecommission(assetId: string) {
  const started = await actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', {
    assetId,
    coApprovedBy: actors.userId('CEO'),
    reason: 'worn out beyond repair',
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body.sagaId as string;
}

const status = (sagaId: string) => sagaStatus(actors, sagaId);
const settle = (sagaId: string, until?: (body: SagaStatusBody) => boolean) => settleSaga(actors, sagaId, until);

beforeAll(async () => {
  actors = await Actors.start();
  const created = await actors.act('Engineer', 'POST', '/api/v1/eam/asset-classes', { code: 'SAGA', name: 'Saga class' });
  classId = created.body.id;
}, 120_000);
afterAll(async () => {
  await actors?.stack.stop();
});

describe('a saga that completes', () => {
  it('runs every step in order as its own job and reports each', async () => {
    const assetId = await newAsset();
    const sagaId = await startDecommission(assetId);
    const done = await settle(sagaId);
    expect(done).toMatchObject({ sagaId, status: 'completed', error: null });
    expect(done.steps.map((step) => [step.name, step.status, step.attempts])).toEqual([
      ['journal', 'completed', 1],
      ['asset', 'completed', 1],
      ['maintenance', 'completed', 1],
    ]);
    expect((await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${assetId}`)).body.status).toBe('decommissioned');
    const journal = await actors.query(`select op, status from operations.asset_movement where saga_id = $1`, [sagaId]);
    expect(journal).toEqual([{ op: 'decommission', status: 'applied' }]);
    // Each step's times are those of its own run: it finished after it started.
    const times = await actors.query(`select name from operations.saga_step where saga_id = $1 and not finished_at > started_at`, [sagaId]);
    expect(times).toEqual([]);
  });

  it('refuses a second saga on the same asset while one runs, and checks the asset and the approver at once', async () => {
    const assetId = await newAsset();
    // Hold the journal still: the first saga's first step waits for this transaction.
    const blocker = new pg.Client({ connectionString: actors.stack.databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table operations.asset_movement in exclusive mode');
    let first: string | undefined;
    try {
      first = await startDecommission(assetId);
      const second = await actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', {
        assetId,
        coApprovedBy: actors.userId('CEO'),
        reason: 'a second time',
      });
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('SAGA_ALREADY_RUNNING');
      expect((await status(first)).status).toBe('running');
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await settle(first!)).status).toBe('completed');
    const again = await actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', {
      assetId,
      coApprovedBy: actors.userId('CEO'),
      reason: 'once more',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ASSET_ALREADY_DECOMMISSIONED');
    const self = await actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', {
      assetId: await newAsset(),
      coApprovedBy: actors.userId('Engineer'),
      reason: 'by myself',
    });
    expect(self.status).toBe(422);
    expect((await actors.act('Engineer', 'GET', `/api/v1/sagas/${randomUUID()}/status`)).status).toBe(404);
  });

  it('delivers every change over graphql-ws in order, and again from afterSequence after a reconnect', async () => {
    const sagaId = await startDecommission(await newAsset());
    await settle(sagaId);
    const query = `subscription ($sagaId: ID!, $afterSequence: Int) {
      sagaProgress(sagaId: $sagaId, afterSequence: $afterSequence) { sequence sagaId step status attempts } }`;
    const token = actors.sessions.get('Engineer')!.token;
    type Event = { sagaProgress: { sequence: number; step: string | null; status: string } };
    const expected = [
      [1, null, 'running'],
      [2, 'journal', 'completed'],
      [3, 'asset', 'completed'],
      [4, 'maintenance', 'completed'],
      [5, null, 'completed'],
    ];
    const first = wsClient(actors.stack, { authorization: `Bearer ${token}` });
    const all = await collect<Event>(first, query, { sagaId }, (seen) => seen.length === 5);
    await first.dispose();
    expect(all.map(({ sagaProgress: event }) => [event.sequence, event.step, event.status])).toEqual(expected);
    const second = wsClient(actors.stack, { authorization: `Bearer ${token}` });
    const rest = await collect<Event>(second, query, { sagaId, afterSequence: 2 }, (seen) => seen.length === 3);
    await second.dispose();
    expect(rest.map(({ sagaProgress: event }) => event.sequence)).toEqual([3, 4, 5]);
    const caughtUp = await actors.act('Engineer', 'GET', `/api/v1/sagas/${sagaId}/events?afterSequence=3`);
    expect(caughtUp.body.map((event: { sequence: number }) => event.sequence)).toEqual([4, 5]);
  });

  it('refuses to watch without a token, and a saga of another organization as a missing one', async () => {
    const anonymous = wsClient(actors.stack, {});
    await expect(collect(anonymous, 'subscription { sagaProgress(sagaId: "x") { sequence } }', {}, () => true)).rejects.toThrow();
    const token = actors.sessions.get('Engineer')!.token;
    const client = wsClient(actors.stack, { authorization: `Bearer ${token}` });
    await expect(
      collect(client, 'subscription ($sagaId: ID!) { sagaProgress(sagaId: $sagaId) { sequence } }', { sagaId: randomUUID() }, () => true),
    ).rejects.toThrow(/not found/i);
    await client.dispose();
  });
});

/** Runs a finished step job again through the queue itself, not the dead-letter route, and waits until it ran. */
async function deliverAgain(jobId: string): Promise<string> {
  const job = () =>
    actors.query<{ state: string; data: unknown }>(`select state, data from bullmq.job where queue = 'core-saga-steps' and id = $1`, [
      jobId,
    ]);
  const hub = new QueueHub({
    consumers: false,
    databaseUrl: actors.stack.databaseUrl,
    redisUrl: undefined,
    logger: createLogger('silent'),
  });
  try {
    await hub.ensure(SAGA_STEPS, jobId, (await job())[0]!.data);
  } finally {
    await hub.close();
  }
  for (;;) {
    const state = (await job())[0]?.state;
    if (state === 'completed' || state === 'failed') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a saga that fails', () => {
  it('retries a failing step, then compensates the done steps in reverse order; the asset is unchanged', async () => {
    const assetId = await newAsset();
    const [row] = await actors.query<{ inventory_number: string }>(`select inventory_number from operations.asset where id = $1`, [
      assetId,
    ]);
    const number = row!.inventory_number;
    await actors.query(
      `alter table operations.asset add constraint saga_test_block check (status <> 'decommissioned' or inventory_number <> '${number}')`,
    );
    try {
      const sagaId = await startDecommission(assetId);
      const ended = await settle(sagaId);
      expect(ended.status).toBe('compensated');
      expect(ended.error).toMatch(/^asset: .*saga_test_block/);
      expect(ended.steps.map((step) => [step.name, step.status])).toEqual([
        ['journal', 'compensated'],
        ['asset', 'failed'],
        ['maintenance', 'pending'],
      ]);
      expect(ended.steps[1]!.attempts).toBe(5);
      expect((await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${assetId}`)).body.status).toBe('operational');
      const journal = await actors.query(`select status from operations.asset_movement where saga_id = $1`, [sagaId]);
      expect(journal).toEqual([{ status: 'failed' }]);

      const letters = await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters');
      const letter = letters.body.entries.find((entry: { sagaId: string }) => entry.sagaId === sagaId);
      expect(letter).toMatchObject({ queue: 'core-saga-steps', jobId: `${sagaId}__asset`, step: 'asset', attemptsMade: 5 });
      expect(letter.failedReason).toContain('saga_test_block');

      // Fixed. The failed job delivered once more by the queue (as after a crash at its end) finds
      // the saga ended and leaves it so; the dead letter retried runs it again from its first step.
      await actors.query(`alter table operations.asset drop constraint saga_test_block`);
      expect(await deliverAgain(`${sagaId}__asset`)).toBe('failed');
      expect((await status(sagaId)).status).toBe('compensated');
      expect(await actors.query(`select status from operations.asset_movement where saga_id = $1`, [sagaId])).toEqual([
        { status: 'failed' },
      ]);
      const retried = await actors.act('Admin', 'POST', `/api/v1/core/sagas/dead-letters/core-saga-steps/${sagaId}__asset/retry`);
      expect(retried.body).toEqual({ queue: 'core-saga-steps', jobId: `${sagaId}__asset`, status: 'waiting' });
      const completed = await settle(sagaId, (body) => body.status === 'completed' || body.status === 'failed');
      expect(completed.status).toBe('completed');
      expect(completed.steps.every((step) => step.status === 'completed')).toBe(true);
      expect((await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${assetId}`)).body.status).toBe('decommissioned');
      const entries = await actors.query(`select status from operations.asset_movement where saga_id = $1 order by created_at`, [sagaId]);
      expect(entries.map((entry) => entry.status)).toEqual(['failed', 'applied']);
      const after = await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters');
      expect(after.body.entries.some((entry: { sagaId: string }) => entry.sagaId === sagaId)).toBe(false);
    } finally {
      await actors.query(`alter table operations.asset drop constraint if exists saga_test_block`);
    }
  });

  it('deletes a dead letter for good and keeps the saga as it ended', async () => {
    await actors.query(
      `alter table operations.asset_movement add constraint saga_test_no_drafts check (status <> 'draft' or saga_id is null)`,
    );
    let sagaId: string | undefined;
    try {
      sagaId = await startDecommission(await newAsset());
      const ended = await settle(sagaId);
      expect(ended.status).toBe('compensated');
      expect(ended.steps[0]).toMatchObject({ name: 'journal', status: 'failed', attempts: 5 });
    } finally {
      await actors.query(`alter table operations.asset_movement drop constraint saga_test_no_drafts`);
    }
    const path = `/api/v1/core/sagas/dead-letters/core-saga-steps/${sagaId!}__journal`;
    expect((await actors.act('Engineer', 'DELETE', path)).status).toBe(403);
    expect((await actors.act('Admin', 'DELETE', path)).body).toEqual({
      queue: 'core-saga-steps',
      jobId: `${sagaId}__journal`,
      deleted: true,
    });
    expect((await actors.act('Admin', 'DELETE', path)).status).toBe(404);
    expect((await actors.act('Admin', 'POST', `${path}/retry`)).body.code).toBe('DEAD_LETTER_NOT_FOUND');
    expect((await status(sagaId!)).status).toBe('compensated');
  });

  it('counts the jobs of both queues for the super-admin', async () => {
    const root = await login(actors.stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const counts = await call(actors.stack, root, 'GET', '/api/v1/core/sagas/queues');
    expect(counts.body.queues.map((queue: { name: string }) => queue.name)).toEqual(['core-saga-steps', 'core-saga-compensate']);
    const steps = counts.body.queues[0];
    expect(steps.completed).toBeGreaterThan(5);
    for (const field of ['failed', 'waiting', 'active', 'delayed', 'completed']) expect(typeof steps[field]).toBe('number');
    expect((await actors.act('Admin', 'GET', '/api/v1/core/sagas/queues')).status).toBe(403);
    expect((await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters?limit=0')).status).toBe(422);
  });
});
