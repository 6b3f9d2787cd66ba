import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { DemoOrganization, targetAt } from '../test/support/demo-organization.js';
import { OPERATIONS_ENV } from '../test/support/operations.js';
import { Deployment, type RoleProcess } from '../test/support/processes.js';
import { awaitSagas, DEFAULT_SAGA_KIND, SAGA_KINDS, type SagaKind } from '../test/support/sagas.js';
import { percentile, table, type BenchModule } from './report.js';

/**
 * Sagas end to end across processes: one API process (`ROLE=all`, `QUEUE_CONSUMERS=false`)
 * starts them over REST, `ROLE=worker` processes run them, on one embedded PostgreSQL, with the
 * queues in that PostgreSQL and again in Redis when one answers (`BENCH_REDIS_URL`, default the
 * local one). Measured from the database's own clock: sagas per second under an open load and
 * working off a backlog, with 1 and 4 workers; each saga's time from start to completed; its
 * steps' run times and the waits between them (saga_step `started_at`/`finished_at`); what
 * PostgreSQL waited on meanwhile. Then the only worker is killed with SIGKILL while it works and
 * started again: how long until the interrupted sagas end. `--kind=<name>` picks the saga kind
 * (default `approve`).
 */

const SAGAS = 200;
/** Start requests in flight at once. */
const STARTING = 16;
const RECOVERY_SAGAS = 20;

interface Timing {
  readonly created: number;
  readonly finished: number;
  readonly steps: ReadonlyArray<{ readonly started: number; readonly finished: number }>;
}

/** The sagas' times in ms, read from the rows the engine wrote. */
async function timings(org: DemoOrganization, sagaIds: readonly string[]): Promise<Timing[]> {
  const rows = await org.query<{ id: string; created: number; finished: number; steps: Array<{ started: number; finished: number }> }>(
    `select s."id", extract(epoch from s."created_at") * 1000 as "created", extract(epoch from s."finished_at") * 1000 as "finished",
       json_agg(json_build_object('started', extract(epoch from t."started_at") * 1000, 'finished', extract(epoch from t."finished_at") * 1000)
         order by t."position") as "steps"
     from operations.saga s join operations.saga_step t on t."saga_id" = s."id"
     where s."id" = any($1::uuid[]) group by s."id"`,
    [sagaIds],
  );
  return rows.map((row) => ({ created: Number(row.created), finished: Number(row.finished), steps: row.steps }));
}

async function startMany(kind: SagaKind<unknown>, org: DemoOrganization, subjects: readonly unknown[]): Promise<string[]> {
  const sagaIds: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: STARTING }, async () => {
      while (next < subjects.length) sagaIds.push(await kind.start(org, subjects[next++]));
    }),
  );
  return sagaIds;
}

/** `count` subjects, made STARTING at a time (a report takes a dozen requests). */
async function makeSubjects(kind: SagaKind<unknown>, org: DemoOrganization, count: number): Promise<unknown[]> {
  const subjects: unknown[] = [];
  await Promise.all(
    Array.from({ length: STARTING }, async () => {
      while (subjects.length < count) {
        const slot = subjects.push(undefined) - 1;
        subjects[slot] = await kind.subject(org, false);
      }
    }),
  );
  return subjects;
}

const ms = (value: number) => Math.round(value);
const perSecond = (count: number, spanMs: number) => ((count * 1000) / spanMs).toFixed(1);

/** What the database's busy sessions wait on, sampled while `until` runs: the most frequent three. */
async function waits<T>(org: DemoOrganization, until: Promise<T>): Promise<{ result: T; waits: string }> {
  const seen = new Map<string, number>();
  let done = false;
  const sampling = (async () => {
    while (!done) {
      const rows = await org.query<{ wait: string; count: string }>(
        `select coalesce("wait_event_type" || ':' || "wait_event", 'CPU') as "wait", count(*) from pg_stat_activity
         where "datname" = current_database() and "state" = 'active' and "pid" <> pg_backend_pid() group by 1`,
      );
      for (const row of rows) seen.set(row.wait, (seen.get(row.wait) ?? 0) + Number(row.count));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    return { result: await until, waits: waitSummary(seen) };
  } finally {
    done = true;
    await sampling;
  }
}

function waitSummary(seen: Map<string, number>): string {
  const total = [...seen.values()].reduce((sum, count) => sum + count, 0);
  return [...seen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([wait, count]) => `${wait} ${Math.round((count * 100) / total)} %`)
    .join(', ');
}

async function ended(org: DemoOrganization, sagaIds: readonly string[]): Promise<Timing[]> {
  const states = await awaitSagas(org, sagaIds, 600_000);
  const incomplete = sagaIds.filter((id) => states.get(id) !== 'completed');
  if (incomplete.length) {
    const causes = await org.query<{ error: string | null; count: string }>(
      `select "error", count(*) from operations.saga where "id" = any($1::uuid[]) group by 1 order by 2 desc limit 5`,
      [incomplete],
    );
    throw new Error(`${incomplete.length} sagas did not complete: ${causes.map((row) => `${row.count} × ${row.error}`).join('; ')}`);
  }
  return timings(org, sagaIds);
}

const first = (values: number[]) => Math.min(...values);
const last = (values: number[]) => Math.max(...values);

/**
 * Open load: SAGAS sagas started as fast as the API takes them while `workers` run them —
 * throughput start → completed, each saga's time, its steps' run times and the waits before them.
 */
async function openLoad(kind: SagaKind<unknown>, org: DemoOrganization, workers: number): Promise<Array<string | number>> {
  const subjects = await makeSubjects(kind, org, SAGAS);
  const { result: runs, waits: waited } = await waits(
    org,
    startMany(kind, org, subjects).then((sagaIds) => ended(org, sagaIds)),
  );
  const created = runs.map((run) => run.created);
  const sagaTimes = runs.map((run) => run.finished - run.created);
  const stepRuns = runs.flatMap((run) => run.steps.map((step) => step.finished - step.started));
  const before = runs.flatMap((run) =>
    run.steps.map((step, index) => step.started - (index ? run.steps[index - 1]!.finished : run.created)),
  );
  return [
    workers,
    SAGAS,
    perSecond(SAGAS, last(created) - first(created)),
    perSecond(SAGAS, last(runs.map((run) => run.finished)) - first(created)),
    ms(percentile(sagaTimes, 50)),
    ms(percentile(sagaTimes, 99)),
    ms(percentile(stepRuns, 50)),
    ms(percentile(stepRuns, 99)),
    ms(percentile(before, 50)),
    ms(percentile(before, 99)),
    waited,
  ];
}

/** A backlog: SAGAS sagas started while no worker runs, then `workers` started — how fast they work it off. */
async function drain(kind: SagaKind<unknown>, org: DemoOrganization, workers: RoleProcess[]): Promise<Array<string | number>> {
  const subjects = await makeSubjects(kind, org, SAGAS);
  const sagaIds = await startMany(kind, org, subjects);
  const { result: runs, waits: waited } = await waits(
    org,
    Promise.all(workers.map((worker) => worker.start())).then(() => ended(org, sagaIds)),
  );
  const stepRuns = runs.flatMap((run) => run.steps.map((step) => step.finished - step.started));
  const span = last(runs.map((run) => run.finished)) - first(runs.map((run) => run.steps[0]!.started));
  return [workers.length, SAGAS, perSecond(SAGAS, span), ms(percentile(stepRuns, 50)), ms(percentile(stepRuns, 99)), waited];
}

/** The only worker killed while it runs steps and started at once: ms until every interrupted saga ended. */
async function recovery(kind: SagaKind<unknown>, org: DemoOrganization, worker: RoleProcess): Promise<Array<string | number>> {
  const subjects = [];
  for (let index = 0; index < RECOVERY_SAGAS; index += 1) subjects.push(await kind.subject(org, false));
  const sagaIds = await startMany(kind, org, subjects);
  // Killed once the worker is at work on the batch (a first step done): the rest is in its hands.
  for (;;) {
    const [row] = await org.query<{ done: string }>(
      `select count(*) as "done" from operations.saga_step where "saga_id" = any($1::uuid[]) and "status" = 'completed'`,
      [sagaIds],
    );
    if (Number(row!.done) > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const killed = performance.now();
  await worker.kill();
  const [open] = await org.query<{ count: string }>(
    `select count(*) from operations.saga where "id" = any($1::uuid[]) and "status" = 'running'`,
    [sagaIds],
  );
  await worker.start();
  const restarted = performance.now() - killed;
  await awaitSagas(org, sagaIds, 600_000);
  return [RECOVERY_SAGAS, Number(open!.count), ms(restarted), ms(performance.now() - killed)];
}

interface Measured {
  readonly open: Array<Array<string | number>>;
  readonly drained: Array<Array<string | number>>;
  readonly crash: Array<string | number>;
}

/** The whole measurement on one queue backend, on a fresh database of the embedded server. */
async function measure(kind: SagaKind<unknown>, serverUrl: string, backend: 'postgres' | 'redis', redisUrl: string): Promise<Measured> {
  const name = `bench_sagas_${backend}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  const deployment = await Deployment.create(databaseUrl, {
    ...OPERATIONS_ENV,
    DEMO_RESEARCH: 'false',
    ...(backend === 'redis' ? { REDIS_URL: redisUrl } : {}),
  });
  try {
    const [api] = await deployment.start({ role: 'all', name: 'api', env: { QUEUE_CONSUMERS: 'false' } });
    const org = await DemoOrganization.signIn(targetAt(api!.url, databaseUrl));
    await kind.setup(org);
    const workers = Array.from({ length: 4 }, (_, index) => deployment.define({ role: 'worker', name: `worker-${index + 1}` }));
    const label = (row: Array<string | number>) => [backend, ...row];
    const drained = [label(await drain(kind, org, workers.slice(0, 1)))];
    const open = [label(await openLoad(kind, org, 1))];
    await workers[0]!.stop();
    drained.push(label(await drain(kind, org, workers)));
    open.push(label(await openLoad(kind, org, 4)));
    await Promise.all(workers.slice(1).map((worker) => worker.stop()));
    const crash = label(await recovery(kind, org, workers[0]!));
    return { open, drained, crash };
  } finally {
    await deployment.stop();
    if (backend === 'redis') await dropKeys(redisUrl, `qantara:${name}:*`);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function dropKeys(redisUrl: string, pattern: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function reachable(redisUrl: string): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export const sagasBench: BenchModule = {
  name: 'sagas',
  title: 'Sagas: end-to-end throughput with 1 and 4 worker processes, step latency, recovery after SIGKILL',
  async run() {
    const kindName = process.argv.find((arg) => arg.startsWith('--kind='))?.slice('--kind='.length) ?? DEFAULT_SAGA_KIND;
    const makeKind = SAGA_KINDS[kindName];
    if (!makeKind) throw new Error(`unknown saga kind ${kindName}; known: ${Object.keys(SAGA_KINDS).join(', ')}`);
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const backends: Array<'postgres' | 'redis'> = (await reachable(redisUrl)) ? ['postgres', 'redis'] : ['postgres'];
    const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-sagas-'));
    const server = await startEmbeddedPostgres(join(dir, 'pg'));
    const results: Measured[] = [];
    let type = '';
    try {
      for (const backend of backends) {
        const kind = makeKind();
        type = kind.type;
        results.push(await measure(kind, server.url, backend, redisUrl));
      }
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
    return [
      `Saga kind \`${type}\`. One API process (\`ROLE=all\`, \`QUEUE_CONSUMERS=false\`) takes the starts over REST (${STARTING} in flight); worker processes (\`ROLE=worker\`, 4 jobs at once per queue each) run the steps; the sagas live in PostgreSQL (embedded, default settings), the BullMQ queues in the same PostgreSQL (\`postgres\`) or in Redis (\`redis\`, \`REDIS_URL\`${backends.includes('redis') ? '' : ': no Redis reachable, not measured'}); everything on this machine. Times in ms from the database's clock: a saga from its start (the row the API wrote) to completed; a step from the start of its job's transaction to its end; the wait before a step from the previous step's end (or the saga's start): the queue hand-off. "Waits" are what PostgreSQL's busy sessions waited on, sampled every 50 ms (\`CPU\`: not waiting; \`Lock:object\`: the lock that serializes the commits of transactions that sent a \`NOTIFY\`; \`IO:WalSync\`: a commit's flush).`,
      '',
      '### Open load: sagas started as fast as the API takes them while the workers run',
      '',
      table(
        [
          'queues',
          'workers',
          'sagas',
          'started/s',
          'completed/s',
          'saga p50',
          'saga p99',
          'step p50',
          'step p99',
          'wait before a step p50',
          'p99',
          'waits',
        ],
        results.flatMap((result) => result.open),
      ),
      '',
      '### Backlog: sagas started with no worker running, then the workers started',
      '',
      'Completed/s from the first step’s start to the last saga’s end.',
      '',
      table(
        ['queues', 'workers', 'sagas', 'completed/s', 'step p50', 'step p99', 'waits'],
        results.flatMap((result) => result.drained),
      ),
      '',
      '### Recovery after SIGKILL',
      '',
      `The only worker is killed once it works on ${RECOVERY_SAGAS} just-started sagas, and started again at once. The jobs it held stay \`active\` until their lock (10 s) lapses and a stalled-job check (every 5 s; on PostgreSQL in two passes, mark then reclaim) moves them back to waiting; each is then run again and skips what had committed.`,
      '',
      table(
        ['queues', 'sagas', 'running at the kill', 'worker back (ms)', 'all ended (ms after the kill)'],
        results.map((result) => result.crash),
      ),
    ].join('\n');
  },
};
