import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_FEED } from '../../../contracts/operations/sagas.contract.js';
import { createLogger } from '../../../runtime/logger.js';
import { SUBGRAPHS } from '../../../subgraphs/index.js';
import { WebhookDispatcher } from '../../../subgraphs/operations/webhooks/webhook-dispatcher.js';
import { pruneTopicFeed } from '../../../subgraphs/shared/events/event-retention.js';
import { SecretBox } from '../../../subgraphs/shared/secret-box.js';
import { migratedDatabase, type MigratedDatabase } from '../../support/migrated-database.js';

/** Retention of delivered events, below HTTP: the operations schema migrated, rows written and pruned directly. */

let database: MigratedDatabase;
let db: pg.Client;
const logger = createLogger('silent');

beforeAll(async () => {
  database = await migratedDatabase(SUBGRAPHS.operations.database);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await database?.close();
});

/** An outbox event that occurred `daysAgo` days ago; answers its sequence. */
async function outboxEvent(daysAgo: number, organizationId: string | null = null): Promise<string> {
  const { rows } = await db.query<{ sequence: string }>(
    `insert into operations.outbox_event ("type", "organization_id", "payload", "occurred_at")
     values ('test.event', $1, '{}', now() - make_interval(days => $2)) returning "sequence"`,
    [organizationId, daysAgo],
  );
  return rows[0]!.sequence;
}

const remaining = async () =>
  (await db.query<{ sequence: string }>('select "sequence" from operations.outbox_event order by 1')).rows.map((row) => row.sequence);

describe('outbox retention', () => {
  it('prunes delivered outbox events past the retention, keeping unread, referenced and recent ones', async () => {
    const { rows: organization } = await db.query<{ id: string }>(
      `insert into operations.organization ("slug", "name") values ('retention', 'Retention') returning "id"`,
    );
    const organizationId = organization[0]!.id;
    const { rows: endpoint } = await db.query<{ id: string }>(
      `insert into operations.webhook_endpoint ("organization_id", "url", "event_types", "secret_sealed")
       values ($1, 'https://receiver.invalid/hook', '{*}', 'sealed') returning "id"`,
      [organizationId],
    );
    const delivered = await outboxEvent(10);
    const referenced = await outboxEvent(10, organizationId);
    await db.query(
      `insert into operations.webhook_delivery ("organization_id", "endpoint_id", "event_sequence", "event_id", "event_type", "next_attempt_at")
       select $1, $2, "sequence", "id", "type", now() from operations.outbox_event where "sequence" = $3`,
      [organizationId, endpoint[0]!.id, referenced],
    );
    const recent = await outboxEvent(2);
    await db.query('update operations.webhook_dispatch_cursor set "sequence" = $1', [recent]);
    const unread = await outboxEvent(10);

    const keepLonger = new WebhookDispatcher(
      database.url,
      SecretBox.fromConfig({ secretsKey: randomBytes(32).toString('hex'), dataDir: '' }),
      logger,
      { outboxRetentionDays: 30 },
    );
    try {
      expect(await keepLonger.purge()).toBe(0);
    } finally {
      await keepLonger.stop();
    }
    expect(await remaining()).toEqual([delivered, referenced, recent, unread]);

    const dispatcher = new WebhookDispatcher(
      database.url,
      SecretBox.fromConfig({ secretsKey: randomBytes(32).toString('hex'), dataDir: '' }),
      logger,
      { outboxRetentionDays: 7 },
    );
    try {
      expect(await dispatcher.purge()).toBe(1);
    } finally {
      await dispatcher.stop();
    }
    expect(await remaining()).toEqual([referenced, recent, unread]);
  });

  it('prunes topic feed events past the retention and keeps the topic’s numbering', async () => {
    await db.query(`insert into ${OPERATIONS_FEED.heads} ("topic", "last_sequence") values ('saga:x', 3)`);
    await db.query(
      `insert into ${OPERATIONS_FEED.events} ("topic", "sequence", "type", "payload", "occurred_at") values
       ('saga:x', 1, 'old', '{}', now() - interval '9 days'), ('saga:x', 2, 'old', '{}', now() - interval '8 days'),
       ('saga:x', 3, 'new', '{}', now() - interval '1 day')`,
    );
    expect(await pruneTopicFeed(database.orm.em.fork(), OPERATIONS_FEED, 7)).toBe(2);
    const { rows } = await db.query<{ sequence: string }>(`select "sequence" from ${OPERATIONS_FEED.events} order by 1`);
    expect(rows.map((row) => Number(row.sequence))).toEqual([3]);
    const head = await db.query<{ last_sequence: string }>(`select "last_sequence" from ${OPERATIONS_FEED.heads} where "topic" = 'saga:x'`);
    expect(Number(head.rows[0]!.last_sequence)).toBe(3);
  });
});
