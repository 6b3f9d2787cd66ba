import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.js';
import { SAGA_COMPENSATIONS, SAGA_STEPS } from '../../subgraphs/operations/sagas/engine.js';
import { QueueHub } from '../../subgraphs/shared/queues/queue-hub.js';
import { Actors } from '../support/actors.js';
import { createTestDatabase } from '../support/database.js';
import { Deployment, type RoleProcess } from '../support/processes.js';
import { awaitSagas, DEFAULT_SAGA_KIND, SAGA_KINDS, type SagaKind, type SagaRun } from '../support/sagas.js';

/**
 * Crash safety of the saga engine: 50 sagas run by one `ROLE=worker` process that is killed
 * with SIGKILL while it runs their steps — once while steps are provably inside their
 * transactions (held by a table lock), then at random moments — and started again each time.
 * The API (in this process, `QUEUE_CONSUMERS=false`) only starts sagas. Every saga must end
 * as it would have without the kills (completed, or compensated for those made to fail), and
 * every effect must be there exactly once. The saga kind is a parameter: any `SagaKind`; by
 * default the shift-report approval, whose check is that every tank balance, stock level, machine
 * hours, day's statistics and timesheet equals the sum of the completed sagas' effects.
 */

/** `SAGA_KIND=<name>` runs it with another kind of `SAGA_KINDS`. */
const kind: SagaKind<unknown> = SAGA_KINDS[process.env.SAGA_KIND ?? DEFAULT_SAGA_KIND]!();
const SAGAS = 50;
/** Every fifth saga fails at a step on every try, so the kills also land in retries and compensations. */
const doomed = (index: number) => index % 5 === 4;
const WAVES = 5;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let deployment: Deployment;
let worker: RoleProcess;
let actors: Actors;
/** One connection for the frequent look at the job table. */
let probe: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  deployment = await Deployment.create(database.url);
  worker = deployment.define({ role: 'worker' });
  actors = await Actors.start({ ...deployment.env, QUEUE_CONSUMERS: 'false' });
  await kind.setup(actors);
  probe = new pg.Client({ connectionString: database.url });
  await probe.connect();
  await worker.start();
}, 240_000);

afterAll(async () => {
  await kind.cure(actors).catch(() => undefined);
  await probe?.end();
  await deployment?.stop();
  await actors?.stop();
  await database?.drop();
}, 60_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Saga jobs the worker has taken and not finished. */
async function activeJobs(): Promise<number> {
  const { rows } = await probe.query<{ count: string }>(
    `select count(*) from bullmq.job where "queue" in ('core-saga-steps', 'core-saga-compensate') and "state" = 'active'`,
  );
  return Number(rows[0]!.count);
}

/** Waits until the worker runs a saga job (or `ms` pass), then kills it after a random moment and starts it again. */
async function killDuringWork(ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while ((await activeJobs()) === 0 && Date.now() < deadline) await pause(10);
  await pause(Math.random() * 60);
  const busy = (await activeJobs()) > 0;
  await worker.kill();
  await pause(Math.random() * 500);
  await worker.start();
  return busy;
}

/** Runs every finished job of the sagas again (as a crash between a commit and the job's end would), and waits until they ran. */
async function redeliverAll(sagaIds: readonly string[]): Promise<void> {
  const hub = new QueueHub({ consumers: false, databaseUrl: database.url, redisUrl: undefined, logger: createLogger('silent') });
  try {
    const { rows } = await probe.query<{ queue: string; id: string; data: unknown }>(
      `select "queue", "id", "data" from bullmq.job where "queue" in ('core-saga-steps', 'core-saga-compensate')
       and split_part("id", '__', 1) = any($1::text[]) and "state" in ('completed', 'failed')`,
      [sagaIds],
    );
    for (const job of rows) await hub.ensure(job.queue === SAGA_STEPS.name ? SAGA_STEPS : SAGA_COMPENSATIONS, job.id, job.data);
  } finally {
    await hub.close();
  }
  for (;;) {
    const { rows } = await probe.query<{ count: string }>(
      `select count(*) from bullmq.job where "queue" in ('core-saga-steps', 'core-saga-compensate') and "state" not in ('completed', 'failed')`,
    );
    if (Number(rows[0]!.count) === 0) return;
    await pause(100);
  }
}

describe(`${kind.type} sagas while the worker is killed`, () => {
  it('ends every saga as without the kills and applies every effect exactly once', async () => {
    const subjects: Array<{ index: number; subject: unknown }> = [];
    for (let index = 0; index < SAGAS; index += 1) subjects.push({ index, subject: await kind.subject(actors, doomed(index)) });
    const started: Array<{ index: number; subject: unknown; sagaId: string }> = [];
    const startAll = (batch: typeof subjects) =>
      Promise.all(batch.map(async ({ index, subject }) => started.push({ index, subject, sagaId: await kind.start(actors, subject) })));

    // A kill inside steps' transactions: the first wave's first steps wait for a table lock.
    const hold = new pg.Client({ connectionString: database.url });
    await hold.connect();
    try {
      await hold.query('begin');
      await hold.query(`lock table ${kind.firstStepWrites} in exclusive mode`);
      await startAll(subjects.slice(0, SAGAS / WAVES));
      while ((await activeJobs()) < 4) await pause(20);
      await worker.kill();
    } finally {
      await hold.query('rollback');
      await hold.end();
    }
    await worker.start();

    // Then at random moments, while waves of sagas start; every other wave the freshly started
    // worker is killed again while it takes up the jobs the last kill left.
    let kills = 1;
    let busyKills = 1;
    for (let wave = 1; wave < WAVES; wave += 1) {
      const batch = subjects.slice((wave * SAGAS) / WAVES, ((wave + 1) * SAGAS) / WAVES);
      const starting = startAll(batch);
      busyKills += Number(await killDuringWork(5_000));
      kills += 1;
      await starting;
      if (wave % 2 === 1) {
        busyKills += Number(await killDuringWork(30_000));
        kills += 1;
      }
    }

    const states = await awaitSagas(
      actors,
      started.map((run) => run.sagaId),
      240_000,
    );
    const runs: Array<SagaRun<unknown>> = started.map((run) => ({
      subject: run.subject,
      doomed: doomed(run.index),
      sagaId: run.sagaId,
      state: states.get(run.sagaId)!,
    }));
    expect(kills).toBeGreaterThanOrEqual(WAVES + 1);
    expect(busyKills).toBeGreaterThanOrEqual(1);
    expect(runs.filter((run) => run.state !== (run.doomed ? 'compensated' : 'completed'))).toEqual([]);
    expect(await kind.verify(actors, runs)).toEqual([]);
    // The first kill left jobs mid-transaction; the next worker took them up again.
    const [stalled] = await actors.query<{ count: string }>(`select count(*) from bullmq.job where "stalled_count" > 0`);
    expect(Number(stalled!.count)).toBeGreaterThan(0);

    // At-least-once delivery: every job of these sagas delivered once more changes nothing — not
    // even for the compensated ones once their cause is gone: only a retry from the dead letters
    // runs an ended saga again, and their failed jobs stay dead letters.
    await kind.cure(actors);
    await redeliverAll(started.map((run) => run.sagaId));
    const again = await awaitSagas(
      actors,
      started.map((run) => run.sagaId),
      60_000,
    );
    expect(runs.filter((run) => again.get(run.sagaId) !== run.state)).toEqual([]);
    expect(await kind.verify(actors, runs)).toEqual([]);
    const { rows: letters } = await probe.query<{ id: string }>(`select "id" from bullmq.job where "state" = 'failed'`);
    expect(letters.map((letter) => letter.id.split('__')[0]).sort()).toEqual(
      runs
        .filter((run) => run.doomed)
        .map((run) => run.sagaId)
        .sort(),
    );
  }, 600_000);
});
