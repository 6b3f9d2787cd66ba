import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261127040000_journal_ops as JournalOps } from '../../subgraphs/operations/migrations/Migration20261127040000_journal_ops.js';
import { Actors } from '../support/actors.js';
import { AssetBuilder } from '../support/eam.js';

/**
 * The migration that narrows the movements journal to seed 002's five `op` values, run again on
 * a database holding entries of the three kinds it retires: decommissions move to
 * `asset_decommission`, maintenance entries go, the seed's kinds stay, and the check holds after.
 */

let actors: Actors;
let database: pg.Client;

/** The migration's statements, as the migrator would run them. */
function statements(): string[] {
  const queries: string[] = [];
  const migration = Object.create(JournalOps.prototype) as JournalOps & { addSql(sql: string): void };
  migration.addSql = (sql: string) => queries.push(sql);
  migration.up();
  return queries;
}

beforeAll(async () => {
  actors = await Actors.start();
  database = new pg.Client({ connectionString: actors.stack.databaseUrl });
  await database.connect();
}, 120_000);
afterAll(async () => {
  await database?.end();
  await actors?.stack.stop();
});

describe('the journal migration', () => {
  it('moves decommission entries to their own records, drops maintenance entries and keeps the seed’s kinds', async () => {
    const assets = new AssetBuilder(actors, {
      prefix: 'MIG',
      assetClass: { code: 'MIG', name: 'Migration class' },
      defaults: { name: 'Old rig' },
    });
    const asset = await assets.create();
    const moved = await actors.act('Engineer', 'POST', `/api/v1/eam/assets/${asset.id}/move`, {
      toObjectId: actors.south,
      reason: 'Перевод',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    // The database as the earlier version left it: the wider check, and entries of every kind.
    await database.query('begin');
    await database.query('drop table operations.asset_decommission');
    await database.query('alter table operations.asset_movement drop constraint asset_movement_op_check');
    await database.query(
      `alter table operations.asset_movement add constraint asset_movement_op_check check (op in ('transfer_audit', 'conservation',
         'from_conservation', 'to_repair', 'from_repair', 'to_maintenance', 'from_maintenance', 'decommission'))`,
    );
    const organization = actors.sessions.get('Engineer')!.organizationId;
    for (const [op, status] of [
      ['to_maintenance', 'applied'],
      ['from_maintenance', 'applied'],
      ['to_maintenance', 'cancelled'],
      ['decommission', 'cancelled'],
      ['decommission', 'applied'],
    ]) {
      await database.query(
        `insert into operations.asset_movement (organization_id, asset_id, op, status, from_object_id, reason)
         values ($1, $2, $3, $4, $5, 'old entry')`,
        [organization, asset.id, op, status, actors.south],
      );
    }
    for (const sql of statements()) await database.query(sql);
    await database.query('commit');

    const journal = await database.query(`select op, status from operations.asset_movement where asset_id = $1`, [asset.id]);
    expect(journal.rows).toEqual([{ op: 'transfer_audit', status: 'applied' }]);
    const records = await database.query(
      `select status, object_id, reason from operations.asset_decommission where asset_id = $1 order by status`,
      [asset.id],
    );
    expect(records.rows).toEqual([
      { status: 'applied', object_id: actors.south, reason: 'old entry' },
      { status: 'failed', object_id: actors.south, reason: 'old entry' },
    ]);
    await expect(
      database.query(
        `insert into operations.asset_movement (organization_id, asset_id, op, status) values ($1, $2, 'to_maintenance', 'applied')`,
        [organization, asset.id],
      ),
    ).rejects.toThrow(/asset_movement_op_check/);
    const listed = await actors.act('CEO', 'GET', `/api/v1/eam/movements?assetId=${asset.id}`);
    expect(listed.body.items.map((item: { op: string }) => item.op)).toEqual(['transfer_audit']);
  });
});
