import { type EntityManager, type EntityMetadata, type EntityProperty, ReferenceKind } from '@mikro-orm/core';

/** A column as PostgreSQL sees it after the migrations ran. */
interface DatabaseColumn {
  readonly type: string;
  readonly notNull: boolean;
  readonly generated: boolean;
}

/** A column as an entity maps it. */
interface MappedColumn {
  readonly entity: string;
  readonly property: string;
  readonly type: string;
  readonly nullable: boolean;
  readonly generated: boolean;
}

/** Tables the migration machinery owns; no entity describes them. */
const MACHINERY_TABLES = new Set(['mikro_orm_migrations']);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Compares a subgraph's schema, as the migrations left it, with the entities' metadata and answers one
 * readable line per disagreement: a table no entity maps, an entity without its table, a column no
 * property maps, a property without its column, a column type or nullability that differs, a column
 * the database generates that the entity would write (or the reverse). `[]` means they agree.
 *
 * Column types are compared the way PostgreSQL spells them: each entity column type is declared on a
 * temporary table and read back with `format_type`, so `int`/`integer` or `varchar(255)`/`character
 * varying(255)` are the same type and only real differences are reported.
 *
 * `entities` defaults to every entity the `em`'s ORM discovered.
 */
export async function entityDrift(
  em: EntityManager,
  schema: string,
  entities: Iterable<EntityMetadata> = em.getMetadata().getAll().values(),
): Promise<string[]> {
  const mapped = mappedTables(entities);
  const problems: string[] = [];
  const database = await databaseTables(em, schema);
  const types = await canonicalTypes(em, mapped, problems);

  for (const [table, columns] of mapped) {
    const actual = database.get(table);
    const entityNames = [...new Set([...columns.values()].map((column) => column.entity))].join(', ');
    if (!actual) {
      problems.push(`${schema}.${table}: entity ${entityNames} maps a table the migrations do not create`);
      continue;
    }
    for (const [name, column] of columns) {
      const where = `${schema}.${table}.${name} (${column.entity}.${column.property})`;
      const found = actual.get(name);
      if (!found) {
        problems.push(`${where}: property maps a column the table does not have`);
        continue;
      }
      const type = types.get(column.type);
      if (type !== undefined && type !== found.type) {
        problems.push(`${where}: entity type ${type}, database type ${found.type}`);
      }
      if (column.nullable === found.notNull) {
        problems.push(
          column.nullable
            ? `${where}: entity says nullable, the database column is not null`
            : `${where}: entity says not null, the database column is nullable`,
        );
      }
      if (column.generated !== found.generated) {
        problems.push(
          found.generated
            ? `${where}: the database generates this column, the entity must map it as generated`
            : `${where}: entity maps it as generated, the database column is a plain column`,
        );
      }
    }
    for (const name of actual.keys()) {
      if (!columns.has(name)) problems.push(`${schema}.${table}.${name}: column is not mapped by entity ${entityNames}`);
    }
  }
  for (const table of database.keys()) {
    if (!mapped.has(table) && !MACHINERY_TABLES.has(table)) problems.push(`${schema}.${table}: table has no entity`);
  }
  return problems;
}

/** The columns each table's entities map, by table then column name. */
function mappedTables(entities: Iterable<EntityMetadata>): Map<string, Map<string, MappedColumn>> {
  const tables = new Map<string, Map<string, MappedColumn>>();
  for (const meta of entities) {
    if (meta.embeddable || meta.virtual || meta.view || meta.abstract || meta.expression) continue;
    const table = tables.get(meta.tableName) ?? new Map<string, MappedColumn>();
    tables.set(meta.tableName, table);
    for (const prop of meta.props) {
      for (const [column, type] of propertyColumns(prop)) {
        table.set(column, {
          entity: meta.className,
          property: prop.name,
          type,
          nullable: prop.primary ? false : Boolean(prop.nullable),
          generated: prop.generated !== undefined,
        });
      }
    }
  }
  return tables;
}

/** The columns a property stores, each with its declared type; none for collections and computed values. */
function propertyColumns(prop: EntityProperty): Array<[string, string]> {
  if (prop.persist === false || prop.formula) return [];
  if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) return [];
  if (prop.kind === ReferenceKind.ONE_TO_ONE && !prop.owner) return [];
  // An inline embeddable stores nothing itself; its sub-properties carry the columns.
  if (prop.kind === ReferenceKind.EMBEDDED && !prop.object) return [];
  return (prop.fieldNames ?? []).map((column, index) => [column, prop.columnTypes?.[index] ?? prop.columnTypes?.[0] ?? '']);
}

/** The tables of the schema, with their columns as `format_type` spells them. */
async function databaseTables(em: EntityManager, schema: string): Promise<Map<string, Map<string, DatabaseColumn>>> {
  // raw SQL: the drift check reads the catalog (pg_class, pg_attribute), which has no entities.
  const rows = await em
    .getConnection()
    .execute<Array<{ table_name: string; column_name: string; type: string; not_null: boolean; generated: boolean }>>(
      `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type,
            a.attnotnull as not_null, a.attgenerated <> '' as generated
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = ? and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname, a.attnum`,
      [schema],
    );
  const tables = new Map<string, Map<string, DatabaseColumn>>();
  for (const row of rows) {
    const table = tables.get(row.table_name) ?? new Map<string, DatabaseColumn>();
    tables.set(row.table_name, table);
    table.set(row.column_name, { type: row.type, notNull: row.not_null, generated: row.generated });
  }
  return tables;
}

/**
 * Each distinct entity column type as PostgreSQL spells it: declared as a column of a temporary table
 * (dropped with the transaction, which is rolled back) and read back. A type PostgreSQL does not know
 * is reported as a problem and left out of the comparison.
 */
async function canonicalTypes(
  em: EntityManager,
  tables: Map<string, Map<string, MappedColumn>>,
  problems: string[],
): Promise<Map<string, string>> {
  const declared = [...new Set([...tables.values()].flatMap((columns) => [...columns.values()].map((column) => column.type)))];
  const canonical = new Map<string, string>();
  const connection = em.getConnection();
  await connection
    .transactional(async (trx) => {
      for (const [index, type] of declared.entries()) {
        // raw SQL: DDL of the drift check, each declared type probed in a temporary table under a savepoint.
        await connection.execute('savepoint drift_probe', [], 'run', trx);
        try {
          await connection.execute(`create temporary table ${quote(`drift_probe_${index}`)} (probe ${type})`, [], 'run', trx);
          // raw SQL: the probe's type as the catalog spells it.
          const rows = await connection.execute<Array<{ type: string }>>(
            `select format_type(a.atttypid, a.atttypmod) as type
               from pg_attribute a where a.attrelid = ?::regclass and a.attname = 'probe'`,
            [`pg_temp.drift_probe_${index}`],
            'all',
            trx,
          );
          canonical.set(type, rows[0]!.type);
          // raw SQL: the probe's savepoint released.
          await connection.execute('release savepoint drift_probe', [], 'run', trx);
        } catch (error) {
          // raw SQL: back to the probe's savepoint after a type PostgreSQL rejects.
          await connection.execute('rollback to savepoint drift_probe', [], 'run', trx);
          const users = [...tables.entries()].flatMap(([table, columns]) =>
            [...columns.entries()].filter(([, column]) => column.type === type).map(([name]) => `${table}.${name}`),
          );
          problems.push(`entity column type '${type}' (${users.join(', ')}) is not a PostgreSQL type: ${(error as Error).message}`);
        }
      }
      throw new RollBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RollBack)) throw error;
    });
  return canonical;
}

/** Thrown to roll the probe transaction back once the types are read. */
class RollBack extends Error {}
