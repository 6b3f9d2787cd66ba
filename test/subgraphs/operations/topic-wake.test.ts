import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_FEED } from '../../../contracts/operations/sagas.contract.js';
import { SUBGRAPHS } from '../../../subgraphs/index.js';
import { WAKE_AFTER_COMMIT, wakeTopic } from '../../../subgraphs/shared/events/topic-feed.js';
import { migratedDatabase, type MigratedDatabase } from '../../support/migrated-database.js';

/**
 * The operations feed's wake left to the writer (docs/adr/0048): a transaction that sets
 * WAKE_AFTER_COMMIT commits its events without a `NOTIFY` — so without the lock PostgreSQL
 * serializes notifying commits on — and `wakeTopic` wakes the readers after it.
 */

let database: MigratedDatabase;
let writer: pg.Client;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  database = await migratedDatabase(SUBGRAPHS.operations.database);
  writer = new pg.Client({ connectionString: database.url });
  listener = new pg.Client({ connectionString: database.url });
  await Promise.all([writer.connect(), listener.connect()]);
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query(`listen ${OPERATIONS_FEED.channel}`);
});
afterAll(async () => {
  await listener?.end();
  await writer?.end();
  await database?.close();
});

/** One event of `topic`, in a transaction of its own, with the wake left to after the commit or not. */
async function append(topic: string, wakeAfterCommit: boolean): Promise<void> {
  await writer.query('begin');
  if (wakeAfterCommit) await writer.query(`select set_config('${WAKE_AFTER_COMMIT}', 'on', true)`);
  await writer.query(
    `insert into ${OPERATIONS_FEED.events} ("topic", "sequence", "type", "payload")
     values ($1, coalesce((select max("sequence") from ${OPERATIONS_FEED.events} where "topic" = $1), 0) + 1, 'saga.progress', '{}')`,
    [topic],
  );
  await writer.query('commit');
}

describe('the operations feed woken after the commit', () => {
  it('commits an event of a transaction that takes the wake on itself without a NOTIFY, which wakeTopic then sends', async () => {
    await append('saga:deferred', true);
    // Notifications arrive in commit order: once the later, ordinary event's has arrived, the earlier would have too.
    await append('saga:ordinary', false);
    await expect.poll(() => heard.includes('saga:ordinary')).toBe(true);
    expect(heard).not.toContain('saga:deferred');

    await wakeTopic(database.orm.em.fork(), OPERATIONS_FEED, 'saga:deferred');
    await expect.poll(() => heard.includes('saga:deferred')).toBe(true);
  });

  it('still notifies at the commit for every writer that does not set it', async () => {
    heard.length = 0;
    await append('saga:first', false);
    await append('saga:second', false);
    await expect.poll(() => heard).toEqual(['saga:first', 'saga:second']);
  });
});
