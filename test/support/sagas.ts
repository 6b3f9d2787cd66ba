import type { DemoOrganization } from './demo-organization.js';

/**
 * Sagas as tests and benchmarks drive them: a saga's status, waiting for sagas to end, and
 * the kinds of saga a run can start. A kind knows how to make one subject (one asset to
 * decommission, one report to approve), start its saga, make chosen ones fail for good (so they
 * compensate), and check afterwards that every ended saga's effects are there exactly once.
 * The distributed, chaos and benchmark runs take the kind as a parameter.
 */

export type SagaState = 'running' | 'compensating' | 'completed' | 'compensated' | 'failed';
export const SAGA_ENDS: readonly SagaState[] = ['completed', 'compensated', 'failed'];

export interface SagaStatusBody {
  sagaId: string;
  status: SagaState;
  error: string | null;
  steps: Array<{
    name: string;
    status: string;
    attempts: number;
    error: string | null;
    startedAt: string | null;
    finishedAt: string | null;
  }>;
}

export const sagaStatus = async (org: DemoOrganization, sagaId: string) =>
  (await org.act('Engineer', 'GET', `/api/v1/sagas/${sagaId}/status`)).body as SagaStatusBody;

/** Polls one saga over REST until it ends (or `until` holds). */
export async function settleSaga(
  org: DemoOrganization,
  sagaId: string,
  until = (body: SagaStatusBody) => SAGA_ENDS.includes(body.status),
  timeoutMs = 30_000,
): Promise<SagaStatusBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await sagaStatus(org, sagaId);
    if (until(body)) return body;
    if (Date.now() > deadline) throw new Error(`saga ${sagaId} did not settle: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits (reading the database, not the API) until every saga has ended; returns their states. */
export async function awaitSagas(org: DemoOrganization, sagaIds: readonly string[], timeoutMs: number): Promise<Map<string, SagaState>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await org.query<{ id: string; status: SagaState }>(
      `select "id", "status" from operations.saga where "id" = any($1::uuid[])`,
      [sagaIds],
    );
    const states = new Map(rows.map((row) => [row.id, row.status]));
    const open = sagaIds.filter((id) => !SAGA_ENDS.includes(states.get(id) ?? 'running'));
    if (open.length === 0) return states;
    if (Date.now() > deadline) {
      throw new Error(`${open.length} of ${sagaIds.length} sagas did not end: ${open.slice(0, 5).join(', ')}…`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One saga a run started: its subject, whether it was made to fail, and how it ended. */
export interface SagaRun<S> {
  readonly subject: S;
  readonly doomed: boolean;
  readonly sagaId: string;
  readonly state: SagaState;
}

export interface SagaKind<S> {
  /** The saga's type, as its status reports it. */
  readonly type: string;
  /** A table the first step writes and starting a saga does not: locking it holds that step inside its transaction. */
  readonly firstStepWrites: string;
  /** Once per database, before any subject: reference data, and what makes doomed subjects fail. */
  setup(org: DemoOrganization): Promise<void>;
  /** One subject; a `doomed` one's saga fails at a step on every try, so it ends compensated. */
  subject(org: DemoOrganization, doomed: boolean): Promise<S>;
  /** Starts the subject's saga (202) and returns its id. */
  start(org: DemoOrganization, subject: S): Promise<string>;
  /**
   * What is wrong with the effects of ended sagas: empty when each completed saga's effects are
   * there exactly once and each compensated one left none.
   */
  verify(org: DemoOrganization, runs: ReadonlyArray<SagaRun<S>>): Promise<string[]>;
  /** Removes what makes doomed subjects fail: their sagas could complete now, if anything ran them again. */
  cure(org: DemoOrganization): Promise<void>;
}

/** The asset-decommission saga: doomed assets are refused the `decommissioned` state by a database check. */
export function decommissionSagas(): SagaKind<{ assetId: string; inventoryNumber: string }> {
  let classId = '';
  // Inventory numbers are unique per organization: a random start keeps two runs on one database apart.
  let serial = 10_000 + Math.floor(Math.random() * 80_000);
  const CHECK = 'saga_kind_doomed_assets';
  return {
    type: 'eam.asset-decommission',
    firstStepWrites: 'operations.asset_movement',
    async setup(org) {
      const created = await org.act('Engineer', 'POST', '/api/v1/eam/asset-classes', { code: `SK${serial}`, name: 'Saga runs' });
      if (created.status !== 201) throw new Error(`asset class: ${created.status} ${JSON.stringify(created.body)}`);
      classId = created.body.id;
      await org.query(
        `alter table operations.asset add constraint ${CHECK} check (status <> 'decommissioned' or inventory_number not like 'DX-%')`,
      );
    },
    async subject(org, doomed) {
      const inventoryNumber = `${doomed ? 'DX' : 'SX'}-${(serial += 1)}`;
      const created = await org.act('Engineer', 'POST', '/api/v1/eam/assets', {
        inventoryNumber,
        name: 'Saga rig',
        assetClassId: classId,
        currentObjectId: org.north,
        commissionedAt: '2025-01-01',
        passport: {},
      });
      if (created.status !== 201) throw new Error(`asset: ${created.status} ${JSON.stringify(created.body)}`);
      return { assetId: created.body.id, inventoryNumber };
    },
    async start(org, subject) {
      const started = await org.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', {
        assetId: subject.assetId,
        coApprovedBy: org.userId('CEO'),
        reason: 'worn out beyond repair',
      });
      if (started.status !== 202) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
      return started.body.sagaId as string;
    },
    async verify(org, runs) {
      const sagaIds = runs.map((run) => run.sagaId);
      const assets = await org.query<{ id: string; status: string }>(
        `select "id", "status" from operations.asset where "id" = any($1::uuid[])`,
        [runs.map((run) => run.subject.assetId)],
      );
      const movements = await org.query<{ saga_id: string; status: string }>(
        `select "saga_id", "status" from operations.asset_movement where "saga_id" = any($1::uuid[])`,
        [sagaIds],
      );
      // The audit trigger writes a row per changed row in the changing transaction: a step applied
      // twice would leave its rows twice. The engine tags a step's transaction `saga:<step>`.
      const audit = await org.query<{ request_id: string; change: string; count: string }>(
        `select "request_id", "entity_type" || ' ' || "operation" || ' ' || "action" as "change", count(*) from operations.audit_log
         where "request_id" = any($1::text[]) and "entity_type" in ('Asset', 'AssetMovement') group by 1, 2`,
        [sagaIds],
      );
      const problems: string[] = [];
      for (const run of runs) {
        const asset = assets.find((row) => row.id === run.subject.assetId)?.status;
        const journal = movements.filter((row) => row.saga_id === run.sagaId).map((row) => row.status);
        const changes = Object.fromEntries(
          audit.filter((row) => row.request_id === run.sagaId).map((row) => [row.change, Number(row.count)]),
        );
        const expected =
          run.state === 'completed'
            ? {
                asset: 'decommissioned',
                journal: ['applied'],
                changes: {
                  'AssetMovement saga:journal create': 1,
                  'AssetMovement saga:journal update': 1,
                  'Asset saga:asset update': 1,
                  'AssetMovement saga:asset update': 1,
                },
              }
            : {
                asset: 'operational',
                journal: ['failed'],
                changes: { 'AssetMovement saga:journal create': 1, 'AssetMovement saga:journal update': 2 },
              };
        const found = { asset, journal, changes };
        if (JSON.stringify(sorted(found)) !== JSON.stringify(sorted(expected))) {
          problems.push(`${run.state} saga ${run.sagaId} (${run.subject.inventoryNumber}): ${JSON.stringify(found)}`);
        }
      }
      return problems;
    },
    async cure(org) {
      await org.query(`alter table operations.asset drop constraint if exists ${CHECK}`);
    },
  };
}

/** The value with its objects' keys in order, for comparing by JSON. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, item]) => [key, sorted(item)]),
    );
  }
  return value;
}

/**
 * The kinds a run can be asked for by name: `npm run bench -- sagas --kind=<name>`,
 * `SAGA_KIND=<name>` for the chaos test. A new kind (the shift-report approval: reports seeded
 * approvable, doomed ones failing at a step, `verify` comparing tank balances and stock levels
 * with the sum of the completed sagas' effects) is one more entry.
 */
export const SAGA_KINDS: Readonly<Record<string, () => SagaKind<unknown>>> = {
  decommission: () => decommissionSagas() as SagaKind<unknown>,
};
