import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { DemoOrganization, targetAt } from '../test/support/demo-organization.js';
import { OPERATIONS_ENV } from '../test/support/operations.js';
import { Deployment, type RoleProcess } from '../test/support/processes.js';
import { SAGA_STEPS } from '../subgraphs/operations/sagas/engine.js';
import { createQueueBackend, type AnyQueue } from '../subgraphs/shared/queues/queue-backend.js';
import { approveReport, prdFixtures, seedApprovableReport, type PrdFixtures } from '../test/support/prd.js';
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

async function startMany<S>(start: (org: DemoOrganization, subject: S) => Promise<string>, org: DemoOrganization, subjects: readonly S[]) {
  const sagaIds: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: STARTING }, async () => {
      while (next < subjects.length) sagaIds.push(await start(org, subjects[next++]!));
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
    startMany((at, subject) => kind.start(at, subject), org, subjects).then((sagaIds) => ended(org, sagaIds)),
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
  const sagaIds = await startMany((at, subject) => kind.start(at, subject), org, subjects);
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
  const sagaIds = await startMany((at, subject) => kind.start(at, subject), org, subjects);
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

type Backend = 'postgres' | 'redis';

/**
 * `work` on a fresh database of the embedded server with one API process (`ROLE=all`,
 * `QUEUE_CONSUMERS=false`) started and the demo organization signed in; everything is removed after.
 */
async function onFreshDatabase<T>(
  serverUrl: string,
  backend: Backend,
  redisUrl: string,
  work: (deployment: Deployment, org: DemoOrganization, api: RoleProcess) => Promise<T>,
): Promise<T> {
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
    return await work(deployment, org, api!);
  } finally {
    await deployment.stop();
    if (backend === 'redis') await dropKeys(redisUrl, `qantara:${name}:*`);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The whole measurement on one queue backend, on a fresh database of the embedded server. */
function measure(kind: SagaKind<unknown>, serverUrl: string, backend: Backend, redisUrl: string): Promise<Measured> {
  return onFreshDatabase(serverUrl, backend, redisUrl, async (deployment, org) => {
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
  });
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

/*
 * The spread workload: approvals that do not share rows. SPREAD_OBJECTS production objects, each
 * with its own fuel tank, warehouse and item, its own employees and its share of SPREAD_ASSETS
 * machines; the reports are dealt round the objects, so a report's fuel, materials and
 * machine-hours steps touch only its own object's rows. What is left to share is the engine, the
 * queues and the database itself — the workload that shows whether more worker processes add
 * throughput when the data allows it.
 */

const SPREAD_OBJECTS = 20;
const SPREAD_ASSETS = 50;
const SPREAD_WORKERS = [1, 2, 4] as const;
/**
 * Reports per spread run, unless `--sagas=<n>` says otherwise (a small run proves the bench works);
 * `--workers=1,2` and `--queues=redis` narrow a run to some worker counts and backends.
 */
const SPREAD_SAGAS = 300;
const SAMPLE_MS = 100;

/** Clock ticks per second of `/proc/<pid>/stat`'s CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** Clock ticks of CPU (utime + stime) so far, per process, of each process tree named: the process and its descendants alive now. */
type CpuSample = Map<string, Map<number, number>>;

function cpuSample(roots: ReadonlyMap<string, number>): CpuSample {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command name (in parentheses, may hold spaces): state, ppid, … utime (14th field), stime (15th).
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of stats) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const tree = (pid: number, into: Map<number, number>): Map<number, number> => {
    into.set(pid, stats.get(pid)?.ticks ?? 0);
    for (const child of children.get(pid) ?? []) tree(child, into);
    return into;
  };
  return new Map([...roots].map(([name, pid]) => [name, tree(pid, new Map())]));
}

/**
 * Cores a process tree used between two samples: per process alive at the end, what it used
 * since the first sample (all of it when it started since). A process that ended in between took
 * its time with it — PostgreSQL backends of short connections, e.g. — so this is a floor.
 */
function coresUsed(from: CpuSample, to: CpuSample, name: string, seconds: number): string {
  const before = from.get(name) ?? new Map<number, number>();
  let ticks = 0;
  for (const [pid, now] of to.get(name) ?? []) ticks += now - (before.get(pid) ?? 0);
  return (ticks / CLOCK_TICKS / seconds).toFixed(2);
}

/** The postmaster's pid, the first line of `postmaster.pid` in its data directory. */
const postmasterPid = (dataDir: string) => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

interface Sampled<T> {
  readonly result: T;
  /** Sessions waiting on a lock (`wait_event_type = 'Lock'`), mean per sample. */
  readonly lockWaiting: number;
  /** Of those, by lock (e.g. `object`: commits of transactions that sent a NOTIFY), mean per sample. */
  readonly locks: string;
  /** What the busy sessions were doing, the most frequent three. */
  readonly waits: string;
}

/** Samples `pg_stat_activity` every SAMPLE_MS while `until` runs. */
async function sampled<T>(org: DemoOrganization, until: Promise<T>): Promise<Sampled<T>> {
  const seen = new Map<string, number>();
  const locks = new Map<string, number>();
  let samples = 0;
  let done = false;
  const db = new pg.Client({ connectionString: org.target.databaseUrl });
  await db.connect();
  const sampling = (async () => {
    while (!done) {
      const { rows } = await db.query<{ type: string | null; event: string | null; count: string }>(
        `select "wait_event_type" as "type", "wait_event" as "event", count(*) from pg_stat_activity
         where "datname" = current_database() and "state" = 'active' and "pid" <> pg_backend_pid() group by 1, 2`,
      );
      samples += 1;
      for (const row of rows) {
        const wait = row.type ? `${row.type}:${row.event}` : 'CPU';
        seen.set(wait, (seen.get(wait) ?? 0) + Number(row.count));
        if (row.type === 'Lock') locks.set(row.event!, (locks.get(row.event!) ?? 0) + Number(row.count));
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  try {
    const result = await until;
    const lockWaiting = [...locks.values()].reduce((sum, count) => sum + count, 0) / Math.max(1, samples);
    const byLock = [...locks.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([lock, count]) => `${lock} ${(count / Math.max(1, samples)).toFixed(2)}`)
      .join(', ');
    return { result, lockWaiting, locks: byLock || 'none', waits: waitSummary(seen) };
  } finally {
    done = true;
    await sampling;
    await db.end();
  }
}

/** Fixtures at SPREAD_OBJECTS new production objects, SPREAD_ASSETS machines dealt round them. */
async function spreadFixtures(org: DemoOrganization): Promise<PrdFixtures[]> {
  const tag = randomBytes(3).toString('hex');
  const rows = Array.from({ length: SPREAD_OBJECTS }, (_, index) => ({ code: `SPREAD-${tag}-${index + 1}`, name: `Участок ${index + 1}` }));
  const preview = await org.act('Admin', 'POST', '/api/v1/core/production-objects/import/preview', { rows });
  if (preview.status !== 200 && preview.status !== 201) throw new Error(`objects: ${preview.status} ${JSON.stringify(preview.body)}`);
  const committed = await org.act('Admin', 'POST', '/api/v1/core/production-objects/import/commit', { batchId: preview.body.batchId });
  if (committed.status !== 200 && committed.status !== 201)
    throw new Error(`objects: ${committed.status} ${JSON.stringify(committed.body)}`);
  const objects = (await org.act('Admin', 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string; code: string }>;
  const fixtures: PrdFixtures[] = [];
  for (let index = 0; index < SPREAD_OBJECTS; index += 1) {
    const object = objects.find((row) => row.code === rows[index]!.code);
    if (!object) throw new Error(`object ${rows[index]!.code} was not created`);
    const assets = Math.floor(SPREAD_ASSETS / SPREAD_OBJECTS) + (index < SPREAD_ASSETS % SPREAD_OBJECTS ? 1 : 0);
    fixtures.push(await prdFixtures(org, { objectId: object.id, tankLiters: 900_000, stock: 100_000, assets }));
  }
  return fixtures;
}

/** `count` submitted reports dealt round the objects, made STARTING at a time. */
async function spreadReports(org: DemoOrganization, fixtures: readonly PrdFixtures[], count: number): Promise<string[]> {
  const reports: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: STARTING }, async () => {
      while (next < count) {
        const at = fixtures[next++ % fixtures.length]!;
        reports.push((await seedApprovableReport(org, at)).reportId);
      }
    }),
  );
  return reports;
}

/**
 * One spread run: `workers` worker processes already up, the step queue paused, `count`
 * approvals started over REST (their first jobs wait), then the queue resumed: the run is from
 * the resume to the last saga's end, every worker at work from its first moment. CPU is per
 * process over that same window, in cores (1.00: one core all the time).
 */
async function spreadRun(
  org: DemoOrganization,
  steps: AnyQueue,
  fixtures: readonly PrdFixtures[],
  count: number,
  api: RoleProcess,
  workers: RoleProcess[],
  dataDir: string,
): Promise<Array<string | number>> {
  const reports = await spreadReports(org, fixtures, count);
  await steps.pause();
  const sagaIds = await startMany(approveReport, org, reports);
  const roots = new Map<string, number>([
    ['api', api.pid!],
    ...workers.map((worker, index) => [`w${index + 1}`, worker.pid!] as [string, number]),
    ['postgres', postmasterPid(dataDir)],
  ]);
  const cpuAtStart = cpuSample(roots);
  const resumed = Date.now();
  await steps.resume();
  const run = await sampled(
    org,
    ended(org, sagaIds).then((runs) => ({ runs, cpu: cpuSample(roots), end: Date.now() })),
  );
  const { runs, cpu, end } = run.result;
  const span = last(runs.map((saga) => saga.finished)) - resumed;
  const stepRuns = runs.flatMap((saga) => saga.steps.map((step) => step.finished - step.started));
  const before = runs.flatMap((saga) =>
    saga.steps.map((step, index) => step.started - (index ? saga.steps[index - 1]!.finished : Math.max(saga.created, resumed))),
  );
  const cpuWindow = (end - resumed) / 1000;
  const cores = (name: string) => coresUsed(cpuAtStart, cpu, name, cpuWindow);
  return [
    workers.length,
    count,
    perSecond(count, span),
    ms(percentile(stepRuns, 50)),
    ms(percentile(stepRuns, 99)),
    ms(percentile(before, 50)),
    run.lockWaiting.toFixed(2),
    run.locks,
    `${cores('api')} / ${workers.map((_, index) => cores(`w${index + 1}`)).join(' + ')} / ${cores('postgres')}`,
    run.waits,
  ];
}

/** The spread workload on one queue backend: 1, 2 and 4 workers (started one by one, as each run needs them), each on its own backlog. */
function measureSpread(serverUrl: string, dataDir: string, backend: Backend, redisUrl: string, count: number, sizes: readonly number[]) {
  return onFreshDatabase(serverUrl, backend, redisUrl, async (deployment, org, api) => {
    const fixtures = await spreadFixtures(org);
    const workers = Array.from({ length: Math.max(...sizes) }, (_, index) =>
      deployment.define({ role: 'worker', name: `worker-${index + 1}` }),
    );
    // The bench's own handle on the step queue, to hold the backlog until every worker is up.
    const queues = createQueueBackend({ databaseUrl: deployment.env.DATABASE_URL!, redisUrl: deployment.env.REDIS_URL, poolMax: 2 });
    await queues.prepare();
    const steps = queues.queue(SAGA_STEPS.name, {});
    const rows: Array<Array<string | number>> = [];
    try {
      for (const size of [...sizes].sort((a, b) => a - b)) {
        // One at a time: on a busy machine, several starting at once may not come up within the start timeout.
        for (const worker of workers.slice(0, size)) if (!worker.running) await worker.start();
        const row = [backend, ...(await spreadRun(org, steps, fixtures, count, api, workers.slice(0, size), dataDir))];
        // Each row as it is measured: a long run that fails later still shows what it had.
        process.stderr.write(`sagas-spread: ${row.join(' | ')}\n`);
        rows.push(row);
      }
    } finally {
      await steps.close();
      await queues.close();
    }
    return rows;
  });
}

/** `--name=<value>` from the command line. */
const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

async function backendsAt(redisUrl: string): Promise<Backend[]> {
  return (await reachable(redisUrl)) ? ['postgres', 'redis'] : ['postgres'];
}

export const sagasSpreadBench: BenchModule = {
  name: 'sagas-spread',
  title: `Sagas on a spread workload: ${SPREAD_OBJECTS} objects, 1, 2 and 4 worker processes, locks and CPU`,
  async run() {
    const count = Number(argument('sagas') ?? SPREAD_SAGAS);
    if (!Number.isInteger(count) || count < 1) throw new Error('--sagas=<n> wants a positive whole number');
    const sizes = (argument('workers')?.split(',') ?? SPREAD_WORKERS).map(Number);
    if (!sizes.every((size) => Number.isInteger(size) && size > 0)) throw new Error('--workers=<n,n…> wants positive whole numbers');
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const reachableBackends = await backendsAt(redisUrl);
    const backends = reachableBackends.filter((backend) => (argument('queues')?.split(',') ?? reachableBackends).includes(backend));
    const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-sagas-'));
    const server = await startEmbeddedPostgres(join(dir, 'pg'));
    const rows: Array<Array<string | number>> = [];
    try {
      for (const backend of backends) rows.push(...(await measureSpread(server.url, join(dir, 'pg'), backend, redisUrl, count, sizes)));
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
    return [
      `Saga kind \`prd.shift-report.approve\` (six steps) on ${SPREAD_OBJECTS} production objects, each with its own tank, warehouse, item and employees, and ${SPREAD_ASSETS} machines dealt round them; the reports are dealt round the objects, so no two consecutive reports share a balance. For each queue backend (\`postgres\`: BullMQ in the same PostgreSQL; \`redis\`: \`REDIS_URL\`${backends.includes('redis') ? '' : ', no Redis reachable: not measured'}) and worker count (${sizes.join(', ')}), that many \`ROLE=worker\` processes run, the step queue is paused, ${count} approvals are started over REST (their first jobs wait), and the queue is resumed. Everything runs on this machine: the API process (\`ROLE=all\`, \`QUEUE_CONSUMERS=false\`), the workers and the embedded PostgreSQL (default settings).`,
      '',
      `- **sagas/s**: sagas completed per second from the moment the step queue was resumed to the last saga's end (the workers were up and the queue paused while the sagas were started).`,
      `- **step p50/p99**: a step's transaction, from its start to its end (database clock); **hand-off p50**: from the previous step's end (or the saga's start) to this step's start — queueing, mostly, in a backlog.`,
      `- **lock waits**: PostgreSQL sessions waiting on a lock (\`wait_event_type = 'Lock'\`), mean per sample of \`pg_stat_activity\` every ${SAMPLE_MS} ms; **by lock**: the same split by lock (\`object\`: the lock that serializes the commits of transactions that sent a \`NOTIFY\`; \`transactionid\`, \`tuple\`: row locks); **waits**: what the busy sessions did, CPU meaning not waiting.`,
      `- **CPU**: cores used over the run from \`/proc/<pid>/stat\` of each process tree: API / each worker / PostgreSQL (every backend; a backend that ended during the run is not counted, so this is a floor).`,
      '',
      table(
        [
          'queues',
          'workers',
          'sagas',
          'sagas/s',
          'step p50',
          'step p99',
          'hand-off p50',
          'lock waits',
          'by lock',
          'CPU api / workers / postgres',
          'waits',
        ],
        rows,
      ),
    ].join('\n');
  },
};

export const sagasBench: BenchModule = {
  name: 'sagas',
  title: 'Sagas: end-to-end throughput with 1 and 4 worker processes, step latency, recovery after SIGKILL',
  async run() {
    const kindName = process.argv.find((arg) => arg.startsWith('--kind='))?.slice('--kind='.length) ?? DEFAULT_SAGA_KIND;
    const makeKind = SAGA_KINDS[kindName];
    if (!makeKind) throw new Error(`unknown saga kind ${kindName}; known: ${Object.keys(SAGA_KINDS).join(', ')}`);
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const backends = await backendsAt(redisUrl);
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
