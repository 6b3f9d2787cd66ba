import { defineEntity, p } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubgraphName } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { SUBGRAPHS } from '../../subgraphs/index.js';
import { entityDrift } from '../../subgraphs/shared/entity-drift.js';
import { migrate, openOrm, type SubgraphDatabase } from '../../subgraphs/shared/orm.js';
import { createTestDatabase } from '../support/database.js';

/** Every table is described once, by its entity: the migrations and the entities must agree column by column. */

const logger = createLogger('silent');

async function driftAfterMigrations(name: SubgraphName): Promise<string[]> {
  const database = await createTestDatabase();
  const module = SUBGRAPHS[name];
  const orm = await openOrm(module.database, { databaseUrl: database.url, logger });
  try {
    await migrate(orm, module.database, database.url, logger);
    return await entityDrift(orm.em.fork(), module.database.schema);
  } finally {
    await orm.close(true);
    await database.drop();
  }
}

describe('entities match the migrations', () => {
  it.each<SubgraphName>(['library', 'research', 'operations'])(
    'the %s entities map every table and column its migrations create, with the same types and nullability',
    async (name) => {
      expect(await driftAfterMigrations(name)).toEqual([]);
    },
    180_000,
  );
});

describe('the drift check', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`
      create schema drift;
      create table drift.thing (
        "id" integer primary key,
        "name" text not null,
        "note" varchar(40),
        "total" numeric(12, 3) not null,
        "shout" text generated always as (upper("name")) stored
      );
      create table drift.orphan ("id" integer primary key);`);
    await client.end();
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function drift(entities: SubgraphDatabase['entities']): Promise<string[]> {
    const orm = await openOrm({ schema: 'drift', entities, migrations: [] }, { databaseUrl: database.url, logger });
    try {
      return await entityDrift(orm.em.fork(), 'drift');
    } finally {
      await orm.close(true);
    }
  }

  const Orphan = defineEntity({ name: 'Orphan', tableName: 'orphan', properties: { id: p.integer().primary() } });

  it('answers nothing when the entities describe the tables exactly (aliases such as varchar/character varying agree)', async () => {
    const Thing = defineEntity({
      name: 'Thing',
      tableName: 'thing',
      properties: {
        id: p.integer().primary(),
        name: p.text(),
        note: p.string().columnType('varchar(40)').nullable(),
        total: p.decimal('string').columnType('numeric(12,3)'),
        shout: p.text().nullable().generated('(upper("name")) stored'),
      },
    });
    expect(await drift([Thing, Orphan])).toEqual([]);
  });

  it('reports each disagreement: missing table and column, unmapped table and column, type, nullability, generated', async () => {
    const Thing = defineEntity({
      name: 'Thing',
      tableName: 'thing',
      properties: {
        id: p.integer().primary(),
        name: p.text().nullable(),
        note: p.string().columnType('varchar(80)').nullable(),
        shout: p.text().nullable(),
        colour: p.text(),
      },
    });
    const Ghost = defineEntity({ name: 'Ghost', tableName: 'ghost', properties: { id: p.integer().primary() } });
    expect((await drift([Thing, Ghost])).sort()).toEqual(
      [
        'drift.thing.name (Thing.name): entity says nullable, the database column is not null',
        'drift.thing.note (Thing.note): entity type character varying(80), database type character varying(40)',
        'drift.thing.shout (Thing.shout): the database generates this column, the entity must map it as generated',
        'drift.thing.colour (Thing.colour): property maps a column the table does not have',
        'drift.thing.total: column is not mapped by entity Thing',
        'drift.ghost: entity Ghost maps a table the migrations do not create',
        'drift.orphan: table has no entity',
      ].sort(),
    );
  });
});
