import { createHash } from 'node:crypto';
import { DefaultLogger, type Constructor, type EntitySchema, type LoggerOptions } from '@mikro-orm/core';
import { type Migration, Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from '../../runtime/logger.js';

export type SubgraphOrm = MikroORM;

export interface SubgraphDatabase {
  /** PostgreSQL schema owned by the subgraph. */
  readonly schema: string;
  readonly entities: ReadonlyArray<EntitySchema<any, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Committed migrations, oldest first. */
  readonly migrations: ReadonlyArray<Constructor<Migration> & { readonly migrationName: string }>;
}

export interface OrmOptions {
  readonly databaseUrl: string;
  readonly logger: Logger;
  readonly poolMax?: number;
  /** Called for every statement sent (counted in `/metrics`). */
  readonly onQuery?: () => void;
}

/** MikroORM's logger, which is told of every statement whether or not it prints it: counts them. */
class CountingLogger extends DefaultLogger {
  constructor(
    options: LoggerOptions,
    private readonly onQuery: () => void,
  ) {
    super(options);
  }

  override logQuery(context: Parameters<DefaultLogger['logQuery']>[0]): void {
    if (context.level !== 'error') this.onQuery();
    super.logQuery(context);
  }
}

/** Opens the subgraph's MikroORM instance on its own schema. */
export async function openOrm(database: SubgraphDatabase, options: OrmOptions): Promise<SubgraphOrm> {
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.databaseUrl,
    schema: database.schema,
    entities: [...database.entities],
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: options.poolMax ?? 10 },
    migrations: {
      tableName: 'mikro_orm_migrations',
      schema: database.schema,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      migrationsList: database.migrations.map((migration) => ({ name: migration.migrationName, class: migration })),
    },
    debug: false,
    ...(options.onQuery ? { loggerFactory: (logger: LoggerOptions) => new CountingLogger(logger, options.onQuery!) } : {}),
  });
}

/** A stable 64-bit advisory lock key derived from the schema name. */
function lockKey(schema: string): string {
  return createHash('sha256').update(`qantara:migrate:${schema}`).digest().readBigInt64BE(0).toString();
}

/**
 * Applies pending migrations while holding a session advisory lock, so several
 * instances starting at once apply each migration exactly once.
 */
export async function migrate(orm: SubgraphOrm, database: SubgraphDatabase, databaseUrl: string, logger: Logger): Promise<string[]> {
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    // raw SQL: locking (a session advisory lock) and the DDL of the schema, before the migrator runs.
    await lock.query('select pg_advisory_lock($1::bigint)', [lockKey(database.schema)]);
    await lock.query(`create schema if not exists "${database.schema}"`);
    const applied = await orm.migrator.up();
    const names = applied.map((migration) => migration.name);
    if (names.length > 0) logger.info({ schema: database.schema, migrations: names }, 'migrations applied');
    return names;
  } finally {
    await lock.query('select pg_advisory_unlock($1::bigint)', [lockKey(database.schema)]).catch(() => undefined);
    await lock.end();
  }
}

export interface DatabaseState {
  readonly reachable: boolean;
  readonly pendingMigrations: number | null;
  readonly error?: string;
}

/**
 * Reads the database state for health checks in one round trip: reachable, and how
 * many of the committed migrations the database has not recorded.
 */
export async function databaseState(orm: SubgraphOrm, database: SubgraphDatabase): Promise<DatabaseState> {
  const names = database.migrations.map((migration) => migration.migrationName);
  try {
    const pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
    const { rows } = await pool.query<{ applied: number }>(
      `select count(*)::int as applied from "${database.schema}".mikro_orm_migrations where name = any($1::text[])`,
      [names],
    );
    return { reachable: true, pendingMigrations: names.length - (rows[0]?.applied ?? 0) };
  } catch (error) {
    const message = (error as Error).message;
    const missingTable = /relation .* does not exist/.test(message);
    return missingTable
      ? { reachable: true, pendingMigrations: names.length }
      : { reachable: false, pendingMigrations: null, error: message };
  }
}
