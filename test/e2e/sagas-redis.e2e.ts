import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import { call, login, SUPER_ADMIN } from '../support/operations.js';
import { awaitSagas, decommissionSagas, settleSaga, type DeadLetterBody } from '../support/sagas.js';

/**
 * The saga queues on Redis (`REDIS_URL`): BullMQ's Redis backend under the key prefix
 * `qantara:<database>` — a fresh database per run, so the prefix is this run's alone, and its
 * keys are deleted afterwards. Sagas complete; dead letters are listed, retried and deleted.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const kind = decommissionSagas();
let actors: Actors;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  await redis.connect().catch((error: unknown) => {
    throw new Error(
      `this test needs Redis at ${REDIS_URL} (the machines' Redis; apt-get install redis-server elsewhere): ${String(error)}`,
    );
  });
  actors = await Actors.start({ REDIS_URL });
  prefix = `qantara:${new URL(actors.stack.databaseUrl).pathname.slice(1)}`;
  await kind.setup(actors);
}, 120_000);

afterAll(async () => {
  await kind.cure(actors).catch(() => undefined);
  await actors?.stop();
  if (redis?.status === 'ready') {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  }
});

const deadLetters = async () => (await actors.act('Admin', 'GET', '/api/v1/core/sagas/dead-letters')).body.entries as DeadLetterBody[];

describe('sagas with their queues on Redis', () => {
  it('runs a saga to completion with its jobs kept in Redis under this run’s prefix, none in PostgreSQL', async () => {
    const subject = await kind.subject(actors, false);
    const sagaId = await kind.start(actors, subject);
    const done = await settleSaga(actors, sagaId);
    expect(done.status).toBe('completed');
    expect(done.steps.map((step) => [step.name, step.status])).toEqual([
      ['journal', 'completed'],
      ['asset', 'completed'],
      ['maintenance', 'completed'],
    ]);
    expect(await kind.verify(actors, [{ subject, doomed: false, sagaId, state: 'completed' }])).toEqual([]);
    for (const step of ['journal', 'asset', 'maintenance']) {
      expect(await redis.exists(`${prefix}:core-saga-steps:${sagaId}__${step}`)).toBe(1);
    }
    const [queueSchema] = await actors.query<{ table: string | null }>(`select to_regclass('bullmq.job')::text as "table"`);
    expect(queueSchema!.table).toBeNull();
  });

  it('lists dead letters, retries one into a completed saga once the cause is gone, and deletes another', async () => {
    const subjects = [await kind.subject(actors, true), await kind.subject(actors, true)];
    const [retried, deleted] = await Promise.all(subjects.map((subject) => kind.start(actors, subject)));
    const ended = await awaitSagas(actors, [retried!, deleted!], 60_000);
    expect([...ended.values()]).toEqual(['compensated', 'compensated']);

    const letters = await deadLetters();
    for (const sagaId of [retried, deleted]) {
      const letter = letters.find((entry) => entry.sagaId === sagaId);
      expect(letter).toMatchObject({ queue: 'core-saga-steps', jobId: `${sagaId}__asset`, step: 'asset', attemptsMade: 5 });
      expect(letter!.failedReason).toContain('saga_kind_doomed_assets');
    }

    await kind.cure(actors);
    const path = (sagaId: string) => `/api/v1/core/sagas/dead-letters/core-saga-steps/${sagaId}__asset`;
    expect((await actors.act('Admin', 'POST', `${path(retried!)}/retry`)).body).toEqual({
      queue: 'core-saga-steps',
      jobId: `${retried}__asset`,
      status: 'waiting',
    });
    const completed = await settleSaga(actors, retried!, (body) => body.status === 'completed' || body.status === 'failed');
    expect(completed.status).toBe('completed');
    expect((await actors.act('Engineer', 'GET', `/api/v1/eam/assets/${subjects[0]!.assetId}`)).body.status).toBe('decommissioned');

    expect((await actors.act('Admin', 'DELETE', path(deleted!))).body).toEqual({
      queue: 'core-saga-steps',
      jobId: `${deleted}__asset`,
      deleted: true,
    });
    expect((await actors.act('Admin', 'DELETE', path(deleted!))).status).toBe(404);
    expect(await redis.exists(`${prefix}:core-saga-steps:${deleted}__asset`)).toBe(0);
    expect((await deadLetters()).filter((entry) => entry.sagaId === retried || entry.sagaId === deleted)).toEqual([]);
    expect((await settleSaga(actors, deleted!)).status).toBe('compensated');

    const root = await login(actors.stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const counts = (await call(actors.stack, root, 'GET', '/api/v1/core/sagas/queues')).body.queues;
    expect(counts.map((queue: { name: string }) => queue.name)).toEqual(['core-saga-steps', 'core-saga-compensate']);
    expect(counts[0]).toMatchObject({ failed: 0, waiting: 0, active: 0, delayed: 0 });
    expect(counts[0].completed).toBeGreaterThanOrEqual(6);
  });
});
