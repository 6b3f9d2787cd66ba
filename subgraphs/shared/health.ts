import { VERSION } from '../../contracts/version.js';
import type { ServiceHealthData } from '../../contracts/shared/health.js';
import { databaseState, type SubgraphDatabase, type SubgraphOrm } from './orm.js';

type HealthComponent = ServiceHealthData['components'][number];

/** A dependency's state: `degraded` when it works with a limit an operator should know of (it still counts as up). */
export type HealthCheckResult = { up: boolean; detail?: string | null; degraded?: boolean };

export type HealthCheck = () => Promise<HealthCheckResult>;

const statusOf = (result: HealthCheckResult) => (!result.up ? 'down' : result.degraded ? 'degraded' : 'up');

async function timed(name: string, check: HealthCheck): Promise<HealthComponent> {
  const started = performance.now();
  let result: HealthCheckResult;
  try {
    result = await check();
  } catch (error) {
    result = { up: false, detail: (error as Error).message };
  }
  return {
    name,
    up: result.up,
    status: statusOf(result),
    detail: result.detail ?? null,
    latencyMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** Checks the database and migrations of a subgraph, plus any checks of its own; a degraded component is up. */
export async function checkServiceHealth(
  service: string,
  orm: SubgraphOrm,
  database: SubgraphDatabase,
  extra: Readonly<Record<string, HealthCheck>> = {},
): Promise<ServiceHealthData> {
  const state = await databaseState(orm, database);
  const components: HealthComponent[] = [
    {
      name: 'database',
      up: state.reachable,
      status: state.reachable ? 'up' : 'down',
      detail: state.reachable ? null : (state.error ?? 'unreachable'),
      latencyMs: null,
    },
    {
      name: 'migrations',
      up: state.pendingMigrations === 0,
      status: state.pendingMigrations === 0 ? 'up' : 'down',
      detail: state.pendingMigrations === null ? (state.error ?? 'unknown') : `${state.pendingMigrations} pending`,
      latencyMs: null,
    },
  ];
  for (const [name, check] of Object.entries(extra)) components.push(await timed(name, check));
  return {
    service,
    status: components.every((component) => component.up) ? 'ok' : 'down',
    version: VERSION,
    checkedAt: new Date().toISOString(),
    components,
  };
}
