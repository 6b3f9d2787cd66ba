import type { EntityManager } from '@mikro-orm/postgresql';

let sequence = 0;

/**
 * Runs `sql` with its `$1…$n` parameters sent beside the statement, on the entity manager's
 * connection (inside its transaction when it has one). `em.execute` formats every parameter into
 * the statement text as a literal — a `bytea` as hex, a page's text escaped — which costs more than
 * the statement itself for bulk writes and posting reads; here a Buffer goes in binary and a string
 * as it is. Rows come back as the driver parses them.
 */
export async function nativeQuery<T extends object>(em: EntityManager, sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
  // A compiled raw query as Kysely's `CompiledQuery.raw` builds it.
  const compiled = {
    sql,
    parameters,
    query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] },
    queryId: { queryId: `native-${++sequence}` },
  };
  const result = await em
    .getKysely()
    .executeQuery<T>(compiled as unknown as Parameters<ReturnType<EntityManager['getKysely']>['executeQuery']>[0]);
  return result.rows as T[];
}

/** `($1, $2, $3), ($4, $5, $6)…`: placeholders for `rows` rows of `columns` parameters, each column with its cast (or ''). */
export function valueRows(rows: number, casts: readonly string[]): string {
  const width = casts.length;
  return Array.from(
    { length: rows },
    (_, row) => `(${casts.map((cast, column) => `$${row * width + column + 1}${cast}`).join(', ')})`,
  ).join(', ');
}
