import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import { AssetBuilder } from '../support/eam.js';
import pg from 'pg';
import { call, login, otherOrganization, SUPER_ADMIN, type Session } from '../support/operations.js';
import { collect, wsClient } from '../support/research-ws.js';
import { sagaStatus, settleSaga, type DeadLetterBody, type SagaStatusBody } from '../support/sagas.js';
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
let assets: AssetBuilder;
const newAsset = async (): Promise<string> => (await assets.create()).id;

/** Asks, as the Engineer, for the decommission saga of an asset, approved by the CEO unless `coApprovedBy` says who; the answer as it is. */
const decommission = (assetId: string, reason: string, coApprovedBy = actors.userId('CEO')) =>
  actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', { assetId, coApprovedBy, reason });

async function startDecommission(assetId: string) {
  const started = await decommission(assetId, 'worn out beyond repair');
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body.sagaId as string;
}

const status = (sagaId: string) => sagaStatus(actors, sagaId);
const settle = (sagaId: string, until?: (body: SagaStatusBody) => boolean) => settleSaga(actors, sagaId, until);

beforeAll(async () => {
  actors = await Actors.start();
  assets = new AssetBuilder(actors, { prefix: 'SG', assetClass: { code: 'SAGA', name: 'Saga class' }, defaults: { name: 'Saga rig' } });
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
    const journal = await actors.query(`select status from operations.asset_decommission where saga_id = $1`, [sagaId]);
    expect(journal).toEqual([{ status: 'applied' }]);
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
    await blocker.query('lock table operations.asset_decommission in exclusive mode');
    let first: string | undefined;
    try {
      first = await startDecommission(assetId);
      const second = await decommission(assetId, 'a second time');
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('SAGA_ALREADY_RUNNING');
      expect((await status(first)).status).toBe('running');
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await settle(first!)).status).toBe('completed');
    const again = await decommission(assetId, 'once more');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ASSET_ALREADY_DECOMMISSIONED');
    const self = await decommission(await newAsset(), 'by myself', actors.userId('Engineer'));
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
      const journal = await actors.query(`select status from operations.asset_decommission where saga_id = $1`, [sagaId]);
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
      expect(await actors.query(`select status from operations.asset_decommission where saga_id = $1`, [sagaId])).toEqual([
        { status: 'failed' },
      ]);
      const retried = await actors.act('Admin', 'POST', `/api/v1/core/sagas/dead-letters/core-saga-steps/${sagaId}__asset/retry`);
      expect(retried.body).toEqual({ queue: 'core-saga-steps', jobId: `${sagaId}__asset`, status: 'waiting' });
      const completed = await settle(sagaId, (body) => body.status === 'completed' || body.status === 'failed');
      expect(completed.status).toBe('completed');
      expect(completed.steps.every((step) => step.status === 'completed')).toBe(true);
      expect((await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${assetId}`)).body.status).toBe('decommissioned');
      const entries = await actors.query(`select status from operations.asset_decommission where saga_id = $1 order by created_at`, [
        sagaId,
      ]);
      expect(entries.map((entry) => entry.status)).toEqual(['failed', 'applied']);
      const after = await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters');
      expect(after.body.entries.some((entry: { sagaId: string }) => entry.sagaId === sagaId)).toBe(false);
    } finally {
      await actors.query(`alter table operations.asset drop constraint if exists saga_test_block`);
    }
  });

  it('deletes a dead letter for good and keeps the saga as it ended', async () => {
    await actors.query(
      `alter table operations.asset_decommission add constraint saga_test_no_drafts check (status <> 'draft' or saga_id is null)`,
    );
    let sagaId: string | undefined;
    try {
      sagaId = await startDecommission(await newAsset());
      const ended = await settle(sagaId);
      expect(ended.status).toBe('compensated');
      expect(ended.steps[0]).toMatchObject({ name: 'journal', status: 'failed', attempts: 5 });
    } finally {
      await actors.query(`alter table operations.asset_decommission drop constraint saga_test_no_drafts`);
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

describe('dead letters per organization', () => {
  const DEAD_LETTERS = '/api/v1/core/sagas/dead-letters';

  /**
   * `count` compensated decommission sagas of an organization whose first step failed for good,
   * each with its dead letter as the engine leaves it, one minute apart, the newest first.
   */
  async function failedSagas(organizationId: string, count: number): Promise<string[]> {
    const rows = await actors.query<{ id: string }>(
      `with saga as (
         insert into operations.saga ("organization_id", "type", "entity_type", "entity_id", "payload", "status", "error", "finished_at")
         select $1, 'eam.asset-decommission', 'Asset', gen_random_uuid(),
           jsonb_build_object('assetId', gen_random_uuid(), 'coApprovedBy', gen_random_uuid(), 'reason', 'worn out'),
           'compensated', 'journal: the asset is gone', now()
         from generate_series(1, $2) returning "id"
       ), numbered as (select "id", row_number() over (order by "id") as n from saga),
       steps as (
         insert into operations.saga_step ("saga_id", "organization_id", "position", "name", "status", "attempts", "error")
         select "id", $1, s.position, s.name, case when s.position = 0 then 'failed' else 'pending' end, case when s.position = 0 then 5 else 0 end,
           case when s.position = 0 then 'the asset is gone' end
         from numbered, (values (0, 'journal'), (1, 'asset'), (2, 'maintenance')) as s(position, name)
       )
       insert into operations.dead_letter ("organization_id", "queue", "job_id", "saga_id", "step", "attempts_made", "error", "failed_at")
       select $1, 'core-saga-steps', "id" || '__journal', "id", 'journal', 5, 'the asset is gone', now() - n * interval '1 minute'
       from numbered order by n returning "saga_id" as "id"`,
      [organizationId, count],
    );
    return rows.map((row) => row.id);
  }

  const letters = async (session: Session, limit: number) => {
    const response = await call(actors.stack, session, 'GET', `${DEAD_LETTERS}?limit=${limit}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { entries: DeadLetterBody[]; truncated: boolean };
  };

  it('shows each organization its own, all of them, newest first, `limit` per queue with `truncated`; retry and delete take one out', async () => {
    const a = actors.sessions.get('Admin')!;
    const b = await otherOrganization(actors.stack, `dl-${randomUUID().slice(0, 8)}`, 'Dead letters Co');
    const ours = await failedSagas(a.organizationId!, 60);
    const [theirs] = await failedSagas(b.organizationId, 1);

    const seenByB = await letters(b.admin, 50);
    expect(seenByB.entries.map((entry) => entry.sagaId)).toEqual([theirs]);
    expect(seenByB.truncated).toBe(false);

    const page = await letters(a, 50);
    const steps = page.entries.filter((entry) => entry.queue === 'core-saga-steps');
    expect(steps).toHaveLength(50);
    expect(page.truncated).toBe(true);
    expect(steps.some((entry) => entry.sagaId === theirs)).toBe(false);
    const times = steps.map((entry) => entry.failedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(steps[0]).toMatchObject({
      jobId: `${steps[0]!.sagaId}__journal`,
      step: 'journal',
      attemptsMade: 5,
      failedReason: 'the asset is gone',
    });
    const everyOne = (await letters(a, 500)).entries.map((entry) => entry.sagaId);
    expect(everyOne).toEqual(expect.arrayContaining(ours));

    // Another organization's dead letter is as missing as an unknown one.
    const path = (sagaId: string) => `${DEAD_LETTERS}/core-saga-steps/${sagaId}__journal`;
    const foreign = await call(actors.stack, b.admin, 'DELETE', path(ours[0]!));
    expect([foreign.status, foreign.body.code]).toEqual([404, 'DEAD_LETTER_NOT_FOUND']);
    expect((await call(actors.stack, b.admin, 'POST', `${path(ours[0]!)}/retry`)).status).toBe(404);

    const deleted = await call(actors.stack, a, 'DELETE', path(ours[0]!));
    expect(deleted.body).toEqual({ queue: 'core-saga-steps', jobId: `${ours[0]}__journal`, deleted: true });
    expect((await call(actors.stack, a, 'DELETE', path(ours[0]!))).status).toBe(404);
    const afterDelete = (await letters(a, 500)).entries.map((entry) => entry.sagaId);
    expect(afterDelete).not.toContain(ours[0]);
    expect(afterDelete).toEqual(expect.arrayContaining(ours.slice(1)));

    // Retried, the saga runs again; its first step fails for good once more (the asset does not
    // exist), so the engine writes the dead letter again, with the new failure.
    const retried = await call(actors.stack, a, 'POST', `${path(ours[1]!)}/retry`);
    expect(retried.body).toEqual({ queue: 'core-saga-steps', jobId: `${ours[1]}__journal`, status: 'waiting' });
    const ended = await settle(ours[1]!, (body) => body.status === 'compensated');
    expect(ended.steps[0]).toMatchObject({ name: 'journal', status: 'failed' });
    let again: DeadLetterBody | undefined;
    for (let tries = 0; !again && tries < 100; tries += 1) {
      again = (await letters(a, 500)).entries.find((entry) => entry.sagaId === ours[1]);
      if (!again) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again).toMatchObject({ jobId: `${ours[1]}__journal`, step: 'journal', attemptsMade: 1 });
    expect(again!.failedReason).toContain('RECORD_NOT_FOUND');
    expect((await letters(a, 1)).entries[0]!.sagaId).toBe(ours[1]);
    expect((await letters(b.admin, 50)).entries.map((entry) => entry.sagaId)).toEqual([theirs]);
  }, 120_000);
});
