import type { RouteDefinition } from '../route.js';
import { componentsByName, type HealthData } from './health-shapes.js';

/** Research REST paths (seed 001, part A, Variant A). */
export const researchRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/health',
    family: 'research',
    operation: 'ResearchHealth',
    respond: (data) => {
      const health = data.researchHealth as HealthData;
      return {
        status: health.status === 'ok' ? 200 : 503,
        body: {
          status: health.status,
          service: health.service,
          version: health.version,
          checkedAt: health.checkedAt,
          components: componentsByName(health),
        },
      };
    },
  },
];
