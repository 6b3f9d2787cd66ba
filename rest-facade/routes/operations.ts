import { VERSION } from '../../runtime/version.js';
import type { RouteDefinition, RouteResult } from '../route.js';
import type { HealthData } from './health-shapes.js';

/** Readiness in the `{status, info, error, details}` shape operations monitors expect. */
function readiness(data: Record<string, unknown>): RouteResult {
  const health = data.operationsHealth as HealthData;
  const entry = (component: HealthData['components'][number]) =>
    [component.name, component.up ? { status: 'up' } : { status: 'down', message: component.detail ?? 'down' }] as const;
  const up = health.components.filter((component) => component.up);
  const down = health.components.filter((component) => !component.up);
  return {
    status: down.length === 0 ? 200 : 503,
    body: {
      status: down.length === 0 ? 'ok' : 'error',
      info: Object.fromEntries(up.map(entry)),
      error: Object.fromEntries(down.map(entry)),
      details: Object.fromEntries(health.components.map(entry)),
    },
  };
}

/** Operations REST paths (seed 002), all under `/api/v1`. */
export const operationsRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v1/health/live',
    family: 'operations',
    respond: () => ({ body: { status: 'ok', service: 'operations', version: VERSION, at: new Date().toISOString() } }),
  },
  { method: 'GET', path: '/api/v1/health', family: 'operations', respond: () => ({ body: { status: 'ok' } }) },
  { method: 'GET', path: '/api/v1/health/ready', family: 'operations', operation: 'OperationsHealth', respond: readiness },
  { method: 'GET', path: '/api/v1/health/deep', family: 'operations', operation: 'OperationsHealth', respond: readiness },
];
