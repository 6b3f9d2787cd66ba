import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { componentsByName, healthBody, ServiceHealth } from '../shared/health.js';

/** `GET /health` of the research service. */

const HealthWire = healthBody(z.enum(['ok', 'down'])).meta({ id: 'ResearchHealthStatus' });

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
        components: componentsByName(health),
      },
    }),
  },
});
