import { raw, type EntityName } from '@mikro-orm/postgresql';
import type { SubgraphOrm } from '../shared/orm.js';

/** What every row a research queue works on has: its id is the job's id. */
interface Waiting {
  readonly id: string;
  readonly status: string;
  readonly createdAt: Date;
}

/**
 * The ids of rows still in `status` more than a few seconds after they were written: accepted,
 * but their queue add was lost after the commit. Oldest first, at most 500 a pass, so a
 * consumer's `recover` queues them again.
 */
export async function unqueuedIds<T extends Waiting>(orm: SubgraphOrm, entity: EntityName<T>, status: T['status']): Promise<string[]> {
  // Read through the shape every such row has, so one query serves each entity.
  const rows = await orm.em
    .fork()
    .find(
      entity as EntityName<Waiting>,
      { status, createdAt: { $lt: raw(`now() - interval '5 seconds'`) } },
      { fields: ['id'], orderBy: { createdAt: 'asc' }, limit: 500 },
    );
  return rows.map((row) => row.id);
}
