import { hostname } from 'node:os';
import type { Client } from 'graphql-ws';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { DemoOrganization, targetAt } from '../support/demo-organization.js';
import { OPERATIONS_ENV } from '../support/operations.js';
import { Deployment, type RoleProcess } from '../support/processes.js';
import { connectOutcome, wsClient } from '../support/research-ws.js';
import { decommissionSagas, sagaStatus, settleSaga } from '../support/sagas.js';

/**
 * Sagas across processes on one database: the three subgraph servers, two `ROLE=gateway`
 * processes (A and B) and one `ROLE=worker`, each its own `node main.ts`. Only the worker runs
 * saga jobs; its progress events reach graphql-ws subscribers on either gateway through the
 * outbox and LISTEN/NOTIFY, and a subscriber that moves from A to B resumes with
 * `afterSequence`. Steps are held still where the test needs them by database locks.
 */

const kind = decommissionSagas();
const PROGRESS = `subscription ($sagaId: ID!, $afterSequence: Int) {
  sagaProgress(sagaId: $sagaId, afterSequence: $afterSequence) { sequence sagaId step status attempts } }`;

interface Progress {
  sequence: number;
  sagaId: string;
  step: string | null;
  status: string;
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let deployment: Deployment;
let gatewayA: RoleProcess;
let gatewayB: RoleProcess;
let worker: RoleProcess;
/** The demo users signed in through gateway A, and the same through B. */
let viaA: DemoOrganization;
let viaB: DemoOrganization;

beforeAll(async () => {
  database = await createTestDatabase();
  deployment = await Deployment.create(database.url, { ...OPERATIONS_ENV, DEMO_RESEARCH: 'false' });
  const started = await deployment.startRemote(2);
  [gatewayA, gatewayB] = started.gateways as [RoleProcess, RoleProcess];
  worker = deployment.define({ role: 'worker' });
  viaA = await DemoOrganization.signIn(targetAt(gatewayA.url, database.url));
  viaB = await DemoOrganization.signIn(targetAt(gatewayB.url, database.url));
  await kind.setup(viaA);
}, 240_000);

afterAll(async () => {
  await kind.cure(viaA).catch(() => undefined);
  await deployment?.stop();
  await database?.drop();
}, 60_000);

const subscriber = (gateway: RoleProcess) => wsClient(gateway, { authorization: `Bearer ${viaA.token('Engineer')}` });

/**
 * Watches a saga, calling `seen` after each event (awaited: events meanwhile wait in order),
 * until `seen` answers true; then unsubscribes.
 */
async function watch(
  client: Client,
  sagaId: string,
  afterSequence: number | undefined,
  seen: (event: Progress) => Promise<boolean> | boolean,
) {
  const events: Progress[] = [];
  for await (const result of client.iterate<{ sagaProgress: Progress }>({ query: PROGRESS, variables: { sagaId, afterSequence } })) {
    if (result.errors?.length) throw new Error(result.errors[0]!.message);
    const event = result.data!.sagaProgress;
    events.push(event);
    if (await seen(event)) break;
  }
  return events;
}

const ended = (event: Progress) => event.step === null && event.status === 'completed';
const summary = (events: Progress[]) => events.map((event) => [event.sequence, event.step, event.status]);

describe('sagas across gateway, subgraph and worker processes', () => {
  it('runs saga jobs in the worker process only, and a subscriber on gateway A sees every step live, in order', async () => {
    const sagaId = await kind.start(viaA, await kind.subject(viaA, false));
    const client = subscriber(gatewayA);
    const events = await watch(client, sagaId, undefined, async (event) => {
      if (event.sequence === 1) {
        // No worker yet: the gateways and subgraph servers only queue the job.
        expect((await sagaStatus(viaA, sagaId)).steps.map((step) => step.status)).toEqual(['pending', 'pending', 'pending']);
        await worker.start();
      }
      return ended(event);
    });
    await client.dispose();
    expect(summary(events)).toEqual([
      [1, null, 'running'],
      [2, 'journal', 'completed'],
      [3, 'asset', 'completed'],
      [4, 'maintenance', 'completed'],
      [5, null, 'completed'],
    ]);
    expect(events.every((event) => event.sagaId === sagaId)).toBe(true);
    const jobs = await viaA.query<{ id: string; processed_by: string }>(
      `select "id", "processed_by" from bullmq.job where "queue" = 'core-saga-steps' and "id" like $1 order by "id"`,
      [`${sagaId}__%`],
    );
    expect(jobs.map((job) => job.processed_by)).toEqual(jobs.map(() => `${hostname()}:${worker.pid}`));
    expect(jobs).toHaveLength(3);
  });

  it('resumes on gateway B from afterSequence: exactly the missed events, then the rest as they happen', async () => {
    const subject = await kind.subject(viaA, false);
    // Steps are held by locks they need: the journal by the decommission records, the asset step by
    // the asset row (taken once the start, which locks the asset too, is done).
    const holdJournal = new pg.Client({ connectionString: database.url });
    const holdAsset = new pg.Client({ connectionString: database.url });
    await Promise.all([holdJournal.connect(), holdAsset.connect()]);
    try {
      await holdJournal.query('begin');
      await holdJournal.query('lock table operations.asset_decommission in exclusive mode');
      const sagaId = await kind.start(viaA, subject);
      await holdAsset.query('begin');
      await holdAsset.query('select 1 from operations.asset where id = $1 for no key update', [subject.assetId]);

      const onA = subscriber(gatewayA);
      const seenOnA = await watch(onA, sagaId, undefined, () => true);
      await onA.dispose();

      // Disconnected: the journal step runs, its event is missed.
      await holdJournal.query('rollback');
      await settleSaga(viaB, sagaId, (body) => body.steps[0]!.status === 'completed');

      const onB = subscriber(gatewayB);
      const seenOnB = await watch(onB, sagaId, seenOnA.at(-1)!.sequence, async (event) => {
        if (event.step === 'journal') await holdAsset.query('rollback');
        return ended(event);
      });
      await onB.dispose();

      expect(summary(seenOnA)).toEqual([[1, null, 'running']]);
      expect(summary(seenOnB)).toEqual([
        [2, 'journal', 'completed'],
        [3, 'asset', 'completed'],
        [4, 'maintenance', 'completed'],
        [5, null, 'completed'],
      ]);
    } finally {
      await Promise.all([holdJournal.end(), holdAsset.end()]);
    }
  });

  it('refuses a connection without a token or with an invalid one, on either gateway', async () => {
    expect(await connectOutcome(gatewayA, {})).toBe(4403);
    expect(await connectOutcome(gatewayB, {})).toBe(4403);
    expect(await connectOutcome(gatewayA, { authorization: 'Bearer not-a-token' })).toBe(4403);
    expect(await connectOutcome(gatewayB, { authorization: `Bearer ${viaA.token('Engineer')}x` })).toBe(4403);
    expect(await connectOutcome(gatewayB, { authorization: `Bearer ${viaA.token('Engineer')}` })).toBe('ack');
  });
});
