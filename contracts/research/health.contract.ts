import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { ServiceHealth } from '../shared/health.js';

/** `GET /health` of the research service. */

const HealthWire = z
  .object({
    status: z.enum(['ok', 'down']),
    service: z.string(),
    version: z.string(),
    checkedAt: z.string(),
    components: z.record(
      z.string(),
      z.object({ status: z.enum(['up', 'degraded', 'down']), detail: z.string().nullable(), latencyMs: z.number().nullable() }),
    ),
  })
  .meta({ id: 'ResearchHealthStatus' });

export const researchHealth = defineOperation({
  service: 'research',
  name: 'researchHealth',
  kind: 'query',
  summary: 'Service health',
  description: 'Research health: database, migrations and the job queues (with their counts); 503 when a dependency is down.',
  tags: ['health'],
  access: publicAccess(),
  output: ServiceHealth,
  rest: {
    method: 'GET',
    path: '/health',
    response: HealthWire,
    respond: (health) => ({
      status: health.status === 'ok' ? 200 : 503,
      body: {
        status: health.status,
        service: health.service,
        version: health.version,
        checkedAt: health.checkedAt,
        components: Object.fromEntries(
          health.components.map((component) => [
            component.name,
            { status: component.status, detail: component.detail, latencyMs: component.latencyMs },
          ]),
        ),
      },
    }),
  },
});
