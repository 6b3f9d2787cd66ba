import { z } from 'zod';

/** Health of a service, the same type in every subgraph (shared in the supergraph). */
export const HealthComponent = z
  .object({
    name: z.string().describe('database, migrations, search, …'),
    up: z.boolean(),
    status: z
      .enum(['up', 'degraded', 'down'])
      .describe('`degraded`: working, with a limit an operator should know of (see `detail`); readiness stays ready.'),
    detail: z.string().nullable().describe('Why the component is down or degraded, or a short fact about it.'),
    latencyMs: z.number().nullable().describe('How long the check took, in milliseconds.'),
  })
  .meta({ id: 'HealthComponent', description: 'State of one dependency of a service.', shareable: true });

export const ServiceHealth = z
  .object({
    service: z.string(),
    status: z.enum(['ok', 'down']).describe('`ok` when every component is up or degraded, otherwise `down`.'),
    version: z.string(),
    checkedAt: z.string().describe('When the check ran (ISO 8601).'),
    components: z.array(HealthComponent),
  })
  .meta({ id: 'ServiceHealth', description: 'Health of one service, read from its real dependencies.', shareable: true });

export type ServiceHealthData = z.output<typeof ServiceHealth>;

/** The REST body of a health route: `status` as the route answers it, and the components keyed by name. */
export const healthBody = (status: z.ZodType) =>
  z.object({
    status,
    service: z.string(),
    version: z.string(),
    checkedAt: z.string(),
    components: z.record(
      z.string(),
      z.object({ status: z.enum(['up', 'degraded', 'down']), detail: z.string().nullable(), latencyMs: z.number().nullable() }),
    ),
  });

/** The components of a health check keyed by name, as a health route's body lists them. */
export function componentsByName(health: ServiceHealthData) {
  return Object.fromEntries(
    health.components.map((component) => [
      component.name,
      { status: component.status, detail: component.detail, latencyMs: component.latencyMs },
    ]),
  );
}
