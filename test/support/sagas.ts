import type { z } from 'zod';
import type { DeadLetter } from '../../contracts/operations/sagas.contract.js';
import type { DemoOrganization } from './demo-organization.js';
import {
  approveReport,
  prdFixtures,
  readBalances,
  seedApprovableReport,
  sumEffects,
  type ExpectedEffects,
  type OperationsApi,
  type PrdFixtures,
} from './prd.js';

/**
 * Sagas as tests and benchmarks drive them: a saga's status, waiting for sagas to end, and
 * the kinds of saga a run can start. A kind knows how to make one subject (one asset to
 * decommission, one report to approve), start its saga, make chosen ones fail for good (so they
 * compensate), and check afterwards that every ended saga's effects are there exactly once.
 * The distributed, chaos and benchmark runs take the kind as a parameter.
 */

export type SagaState = 'running' | 'compensating' | 'completed' | 'compensated' | 'failed';
export const SAGA_ENDS: readonly SagaState[] = ['completed', 'compensated', 'failed'];

/** One entry of `GET /api/v1/core/sagas/dead-letters`, as its contract answers it. */
export type DeadLetterBody = z.output<typeof DeadLetter>;

export interface SagaStatusBody {
  sagaId: string;
  type: string;
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

export const sagaStatus = async (api: OperationsApi, sagaId: string) =>
  (await api.act('Engineer', 'GET', `/api/v1/sagas/${sagaId}/status`)).body as SagaStatusBody;

/** Polls one saga over REST until it ends (or `until` holds). */
export async function settleSaga(
  api: OperationsApi,
  sagaId: string,
  until = (body: SagaStatusBody) => SAGA_ENDS.includes(body.status),
  timeoutMs = 60_000,
): Promise<SagaStatusBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await sagaStatus(api, sagaId);
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
    firstStepWrites: 'operations.asset_decommission',
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
        `select "saga_id", "status" from operations.asset_decommission where "saga_id" = any($1::uuid[])`,
        [sagaIds],
      );
      // The audit trigger writes a row per changed row in the changing transaction: a step applied
      // twice would leave its rows twice. The engine tags a step's transaction `saga:<step>`.
      const audit = await org.query<{ request_id: string; change: string; count: string }>(
        `select "request_id", "entity_type" || ' ' || "operation" || ' ' || "action" as "change", count(*) from operations.audit_log
         where "request_id" = any($1::text[]) and "entity_type" in ('Asset', 'AssetDecommission') group by 1, 2`,
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
                  'AssetDecommission saga:journal create': 1,
                  'Asset saga:asset update': 1,
                  'AssetDecommission saga:asset update': 1,
                },
              }
            : {
                asset: 'operational',
                journal: ['failed'],
                changes: { 'AssetDecommission saga:journal create': 1, 'AssetDecommission saga:journal update': 1 },
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

export interface ApprovableReport {
  readonly reportId: string;
  readonly expected: ExpectedEffects;
}

/**
 * The shift-report approval saga (six steps: fuel, materials, machine hours, coefficients,
 * statistics, timesheet), every report at one set of fixtures — one tank, one stock, the same
 * machines — so concurrent sagas change the same balances. A doomed report also lists an employee
 * a database check refuses timesheet rows for: its last step fails on every try and the five
 * before it are compensated. `verify` compares every balance with the sum of the completed sagas'
 * effects and looks for anything a compensated saga left.
 */
export function approveSagas(): SagaKind<ApprovableReport> {
  let fixtures: PrdFixtures;
  let doomedFixtures: PrdFixtures;
  let initial: Awaited<ReturnType<typeof readBalances>>;
  const CHECK = 'saga_kind_doomed_reports';
  return {
    type: 'prd.shift-report.approve',
    firstStepWrites: 'operations.fuel_issue',
    async setup(org) {
      // Room for thousands of approvals (241 l and 3.25 kg each).
      fixtures = await prdFixtures(org, { objectId: org.north, tankLiters: 900_000, stock: 100_000 });
      const doomed = await org.act('Admin', 'POST', '/api/v1/hr/personnel', {
        fullName: 'Машинист без табеля',
        tabNumber: `SK-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`,
        positionId: fixtures.positionId,
        hiredAt: '2024-01-15',
        objectId: fixtures.objectId,
      });
      if (doomed.status !== 201) throw new Error(`employee: ${doomed.status} ${JSON.stringify(doomed.body)}`);
      doomedFixtures = { ...fixtures, personnelIds: [...fixtures.personnelIds, doomed.body.id] };
      await org.query(`alter table operations.timesheet_entry add constraint ${CHECK} check ("personnel_id" <> '${doomed.body.id}')`);
      initial = await readBalances(org, fixtures);
    },
    async subject(org, doomed) {
      const { reportId, expected } = await seedApprovableReport(org, doomed ? doomedFixtures : fixtures);
      return { reportId, expected };
    },
    start: (org, subject) => approveReport(org, subject.reportId),
    async verify(org, runs) {
      const problems: string[] = [];
      const completed = runs.filter((run) => run.state === 'completed');
      const reportIds = runs.map((run) => run.subject.reportId);

      // Balances: what was there at the start, less exactly the completed sagas' effects.
      const sums = sumEffects(completed.map((run) => run.subject.expected));
      const now = await readBalances(org, fixtures);
      const exact = (value: number) => Number(value.toFixed(4));
      const tank = exact(initial.tankLiters - (sums.fuel[fixtures.tankId] ?? 0));
      if (now.tankLiters !== tank) problems.push(`tank: ${now.tankLiters} l, expected ${tank}`);
      const stock = exact(initial.stockKg - (sums.stock[`${fixtures.warehouseId}:${fixtures.itemId}`] ?? 0));
      if (now.stockKg !== stock) problems.push(`stock: ${now.stockKg} kg, expected ${stock}`);
      for (const assetId of fixtures.assetIds) {
        const before = initial.assets[assetId]!;
        const hours = exact(before.machineHours + (sums.machineHours[assetId] ?? 0));
        const meters = completed.map((run) => run.subject.expected.machineHours[assetId]!.meterEnd);
        const meter = meters.length ? Math.max(before.meterReading ?? 0, ...meters) : before.meterReading;
        const found = now.assets[assetId]!;
        if (found.machineHours !== hours || found.meterReading !== meter) {
          problems.push(
            `asset ${assetId}: ${JSON.stringify(found)}, expected ${JSON.stringify({ machineHours: hours, meterReading: meter })}`,
          );
        }
      }

      // Per report: its state, its coefficients and its timesheet rows (exactly once, or none).
      const reports = await org.query<{ id: string; status: string }>(
        `select "id", "status" from operations.shift_report where "id" = any($1::uuid[])`,
        [reportIds],
      );
      const coefficients = await org.query<{ report: string; asset: string; availability: number; utilization: number; downtime: number }>(
        `select "shift_report_id" as "report", "asset_id" as "asset", "availability"::float8 as "availability",
           "utilization"::float8 as "utilization", "downtime_hours"::float8 as "downtime"
         from operations.asset_shift_coefficient where "shift_report_id" = any($1::uuid[])`,
        [reportIds],
      );
      const timesheet = await org.query<{ report: string; personnel: string; hours: number; downtime: number }>(
        `select "source_id" as "report", "personnel_id" as "personnel", "hours_worked"::float8 as "hours", "downtime_hours"::float8 as "downtime"
         from operations.timesheet_entry where "source_id" = any($1::uuid[])`,
        [reportIds],
      );
      for (const run of runs) {
        const { reportId, expected } = run.subject;
        const applied = run.state === 'completed';
        const found = {
          report: reports.find((row) => row.id === reportId)?.status,
          coefficients: coefficients
            .filter((row) => row.report === reportId)
            .map((row) => [row.asset, row.availability, row.utilization, row.downtime])
            .sort(),
          timesheet: timesheet
            .filter((row) => row.report === reportId)
            .map((row) => [row.personnel, row.hours, row.downtime])
            .sort(),
        };
        const wanted = {
          report: applied ? 'approved' : 'submitted',
          coefficients: applied
            ? Object.entries(expected.coefficients)
                .map(([asset, row]) => [asset, row.availability, row.utilization, row.downtimeHours])
                .sort()
            : [],
          timesheet: applied
            ? Object.entries(expected.timesheet)
                .map(([personnel, row]) => [personnel, row.hoursWorked, row.downtimeHours])
                .sort()
            : [],
        };
        if (JSON.stringify(found) !== JSON.stringify(wanted)) {
          problems.push(`${run.state} saga ${run.sagaId} (report ${reportId}): ${JSON.stringify(found)}`);
        }
      }

      // The object's daily statistics: per day, the sum of the completed reports' figures.
      const FIGURES = [
        'holesDrilled',
        'depthMeters',
        'blocksBlasted',
        'explosiveKg',
        'fuelIssuedLiters',
        'fuelConsumedLiters',
        'machineHours',
        'downtimeHours',
        'personnelHours',
        'personnelDowntimeHours',
      ] as const;
      const column = (figure: string) => figure.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      const dates = [...new Set(runs.map((run) => run.subject.expected.statistics.statDate))];
      const days = await org.query<Record<string, number | string>>(
        `select "stat_date"::text as "statDate", "reports", ${FIGURES.map((figure) => `"${column(figure)}"::float8 as "${figure}"`).join(', ')}
         from operations.production_statistic where "production_object_id" = $1 and "stat_date" = any($2::date[])`,
        [fixtures.objectId, dates],
      );
      for (const date of dates) {
        const onDate = completed.filter((run) => run.subject.expected.statistics.statDate === date);
        const wanted: Record<string, number> = { reports: onDate.length };
        for (const figure of FIGURES) {
          wanted[figure] = exact(onDate.reduce((sum, run) => sum + run.subject.expected.statistics[figure], 0));
        }
        const row = days.find((day) => day.statDate === date);
        const found = Object.fromEntries(Object.keys(wanted).map((key) => [key, Number(row?.[key] ?? 0)]));
        if (JSON.stringify(found) !== JSON.stringify(wanted)) {
          problems.push(`statistics of ${date}: ${JSON.stringify(found)}, expected ${JSON.stringify(wanted)}`);
        }
      }
      return problems;
    },
    async cure(org) {
      await org.query(`alter table operations.timesheet_entry drop constraint if exists ${CHECK}`);
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
 * `SAGA_KIND=<name>` for the chaos test. `approve` (the shift-report approval) is the default.
 */
export const SAGA_KINDS: Readonly<Record<string, () => SagaKind<unknown>>> = {
  approve: () => approveSagas() as SagaKind<unknown>,
  decommission: () => decommissionSagas() as SagaKind<unknown>,
};
export const DEFAULT_SAGA_KIND = 'approve';
