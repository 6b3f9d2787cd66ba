import { Directive, Field, ObjectType } from 'type-graphql';
import { VERSION } from '../../runtime/version.js';
import { databaseState, type SubgraphDatabase, type SubgraphOrm } from './orm.js';

/** One dependency as a health check sees it. */
@Directive('@shareable')
@ObjectType({ description: 'State of one dependency of a service.' })
export class HealthComponent {
  @Field(() => String, { description: 'database, migrations, search, …' })
  name!: string;

  @Field(() => Boolean)
  up!: boolean;

  @Field(() => String, { nullable: true, description: 'Why the component is down, or a short fact about it.' })
  detail!: string | null;

  @Field(() => Number, { nullable: true, description: 'How long the check took, in milliseconds.' })
  latencyMs!: number | null;
}

@Directive('@shareable')
@ObjectType({ description: 'Health of one service, read from its real dependencies.' })
export class ServiceHealth {
  @Field(() => String)
  service!: string;

  @Field(() => String, { description: '`ok` when every component is up, otherwise `down`.' })
  status!: 'ok' | 'down';

  @Field(() => String)
  version!: string;

  @Field(() => String, { description: 'When the check ran (ISO 8601).' })
  checkedAt!: string;

  @Field(() => [HealthComponent])
  components!: HealthComponent[];
}

export type HealthCheck = () => Promise<{ up: boolean; detail?: string | null }>;

async function timed(name: string, check: HealthCheck): Promise<HealthComponent> {
  const started = performance.now();
  let result: { up: boolean; detail?: string | null };
  try {
    result = await check();
  } catch (error) {
    result = { up: false, detail: (error as Error).message };
  }
  return Object.assign(new HealthComponent(), {
    name,
    up: result.up,
    detail: result.detail ?? null,
    latencyMs: Math.round((performance.now() - started) * 100) / 100,
  });
}

/** Checks the database and migrations of a subgraph, plus any checks of its own. */
export async function checkServiceHealth(
  service: string,
  orm: SubgraphOrm,
  database: SubgraphDatabase,
  extra: Readonly<Record<string, HealthCheck>> = {},
): Promise<ServiceHealth> {
  const state = await databaseState(orm, database);
  const components: HealthComponent[] = [
    Object.assign(new HealthComponent(), {
      name: 'database',
      up: state.reachable,
      detail: state.reachable ? null : (state.error ?? 'unreachable'),
      latencyMs: null,
    }),
    Object.assign(new HealthComponent(), {
      name: 'migrations',
      up: state.pendingMigrations === 0,
      detail: state.pendingMigrations === null ? (state.error ?? 'unknown') : `${state.pendingMigrations} pending`,
      latencyMs: null,
    }),
  ];
  for (const [name, check] of Object.entries(extra)) components.push(await timed(name, check));
  return Object.assign(new ServiceHealth(), {
    service,
    status: components.every((component) => component.up) ? 'ok' : 'down',
    version: VERSION,
    checkedAt: new Date().toISOString(),
    components,
  });
}
