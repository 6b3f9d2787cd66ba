import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';
import { camelRow } from './rows.js';

/** An entity whose rows are soft-deleted (`deleted_at`) and can come back from the trash. */
export interface TrashEntity {
  /** Kebab-case slug of the path, e.g. `production-objects`. */
  readonly slug: string;
  /** PascalCase data-model name. */
  readonly entity: string;
  /** Schema-qualified, quoted table. */
  readonly table: string;
  /** A restore is a change that increments the row's `version` (system roles). */
  readonly countsVersions?: boolean;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * The trash: every soft-deletable entity, its deleted rows per tenant (RLS), and
 * restoring one — its business key is re-checked by the database (unique among rows not
 * in the trash), so a key taken meanwhile answers 409 `TRASH_RESTORE_UNIQUE_CONFLICT`.
 */
export class TrashService {
  private readonly bySlug: ReadonlyMap<string, TrashEntity>;

  constructor(private readonly entities: readonly TrashEntity[]) {
    this.bySlug = new Map(entities.map((entity) => [entity.slug, entity]));
  }

  names(): { entities: string[] } {
    return { entities: this.entities.map((entity) => entity.entity) };
  }

  private entity(slug: string): TrashEntity {
    const found = this.bySlug.get(slug);
    if (!found) throw OperationsError.trashEntityUnknown(slug);
    return found;
  }

  async rows(em: EntityManager, slug: string, limit: number) {
    const entity = this.entity(slug);
    // raw SQL: the trash spans every soft-deleted table, with a window count
    const rows = await em.execute<Array<Record<string, unknown>>>(
      `select *, count(*) over () as "total_deleted" from ${entity.table} where "deleted_at" is not null order by "deleted_at" desc, "id" limit ?`,
      [limit],
    );
    const count = rows.length > 0 ? Number(rows[0]!.total_deleted) : 0;
    return { entity: entity.entity, rows: rows.map(({ total_deleted: _total, organization_id: _org, ...row }) => camelRow(row)), count };
  }

  async restore(em: EntityManager, slug: string, id: string): Promise<{ id: string }> {
    const entity = this.entity(slug);
    try {
      // raw SQL: restore on whichever table the trash entry names, only while it is deleted
      const [row] = await em.execute<Array<{ id: string }>>(
        `update ${entity.table} set "deleted_at" = null, "updated_at" = now()${entity.countsVersions ? ', "version" = "version" + 1' : ''}
         where "id" = ? and "deleted_at" is not null returning "id"`,
        [id],
      );
      if (!row) throw OperationsError.notFound(entity.entity);
      return { id: row.id };
    } catch (error) {
      if (isUniqueViolation(error)) throw OperationsError.restoreConflict(entity.entity);
      throw error;
    }
  }
}
