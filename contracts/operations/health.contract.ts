import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation, type WireResponse } from '../operation.js';
import { ServiceHealth, type ServiceHealthData } from '../shared/health.js';
import { VERSION } from '../version.js';

/** Liveness, readiness and the deep check (seed 002, Health and observability). */

const Indicator = z.object({ status: z.enum(['up', 'degraded', 'down']), message: z.string().optional() });
const ReadinessWire = z
  .object({
    status: z.enum(['ok', 'error']),
    info: z.record(z.string(), Indicator),
    error: z.record(z.string(), Indicator),
    details: z.record(z.string(), Indicator),
  })
  .meta({
    id: 'Readiness',
    description:
      'Each dependency as up, degraded or down; 503 when one is down. A degraded dependency works with a limit ' +
      '(its `message` says which, e.g. a virus scanner that knows only the EICAR test file): it is listed under `info` and ' +
      'the service stays ready.',
  });

/**
 * Readiness in the `{status, info, error, details}` shape operations monitors expect. A
 * degraded component does not make the service unready: traffic it cannot serve would be
 * no better served by taking the instance out of rotation (docs/adr/0022-safe-exposure.md).
 */
function readiness(health: ServiceHealthData): WireResponse {
  const entry = (component: ServiceHealthData['components'][number]) =>
    [
      component.name,
      component.status === 'up' ? { status: 'up' } : { status: component.status, message: component.detail ?? component.status },
    ] as const;
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

export const operationsHealth = defineOperation({
  service: 'operations',
  name: 'operationsHealth',
  kind: 'query',
  summary: 'Readiness probe',
  description:
    'Checks the relational database, migrations, identity (signing keys), the document store (a writable directory, or the ' +
    'S3 bucket), the virus scanner (clamd answers PING; the built-in scanner is degraded) and the cache when configured.',
  tags: ['health'],
  access: publicAccess(),
  output: ServiceHealth,
  rest: [
    { method: 'GET', path: '/api/v1/health/ready', response: ReadinessWire, respond: readiness },
    {
      method: 'GET',
      path: '/api/v1/health/deep',
      summary: 'Deep dependency check (alias of readiness)',
      response: ReadinessWire,
      respond: readiness,
    },
  ],
});

export const operationsLiveness = defineOperation({
  service: 'operations',
  name: 'operationsLiveness',
  kind: 'edge',
  summary: 'Liveness probe',
  description: 'Answers whenever the process does.',
  tags: ['health'],
  access: publicAccess(),
  output: z.object({ status: z.literal('ok'), service: z.string(), version: z.string(), at: z.string() }),
  rest: [
    {
      method: 'GET',
      path: '/api/v1/health/live',
      respond: () => ({ body: { status: 'ok', service: 'operations', version: VERSION, at: new Date().toISOString() } }),
    },
    {
      method: 'GET',
      path: '/api/v1/health',
      summary: 'Liveness alias',
      response: z.object({ status: z.literal('ok') }),
      respond: () => ({ body: { status: 'ok' } }),
    },
  ],
});

export const operationsMetrics = defineOperation({
  service: 'operations',
  name: 'operationsMetrics',
  kind: 'edge',
  summary: 'Metrics scrape',
  description:
    'A text snapshot of every registered metric in the Prometheus exposition format, for the monitoring server (seed 002: ' +
    'public). Counts requests by method, route and status, GraphQL operations, saga and queue work, and database pools.',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: {
    method: 'GET',
    path: '/metrics',
    contentType: 'text/plain',
    respond: async (_data, request) => {
      const { type, body } = await request.metrics();
      return { type, body };
    },
  },
});
