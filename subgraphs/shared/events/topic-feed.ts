import type { EntityManager } from '@mikro-orm/postgresql';
import type { TopicFeed } from '../../../contracts/subscription.js';

/**
 * Writing to a service's topic feed (contracts/subscription.ts), the source of its
 * GraphQL subscriptions. An event is appended in the transaction of the change it
 * reports; its sequence number is the topic's next, taken under the topic's head row
 * lock, so per topic the sequence order is the commit order and a reader that saw
 * sequence n never finds an n-1 committed later. Committing wakes readers with
 * `NOTIFY <channel>, '<topic>'`.
 */

/** The statements that create a feed's tables and trigger, for a service's migration. */
export function topicFeedDdl(feed: TopicFeed): string[] {
  const [schema] = feed.events.split('.');
  const notify = `${schema}."notify_topic_event"`;
  return [
    `create table ${feed.heads} ("topic" text primary key, "last_sequence" bigint not null)`,
    `create table ${feed.events} (
      "topic" text not null,
      "sequence" bigint not null,
      "type" text not null,
      "payload" jsonb not null,
      "occurred_at" timestamptz not null default clock_timestamp(),
      primary key ("topic", "sequence")
    )`,
    `create function ${notify}() returns trigger language plpgsql as $fn$
     begin perform pg_notify('${feed.channel}', new."topic"); return null; end $fn$`,
    `create trigger "topic_event_notify" after insert on ${feed.events} for each row execute function ${notify}()`,
  ];
}

/**
 * The transaction setting (`SET LOCAL`) with which a writer takes the wake-up on itself: the
 * feed's trigger sends no `NOTIFY` for that transaction's events, and the writer calls
 * `wakeTopic` once it has committed. PostgreSQL serializes the commits of every transaction that
 * sent a `NOTIFY` on one database-wide lock held through the commit's WAL flush, so a busy writer
 * whose transactions each append an event (the saga engine: one per step) queues all its commits
 * single file, flush after flush, where they could share one flush. A `NOTIFY` sent on its own,
 * outside a transaction that wrote, holds that lock for no flush at all. Readers lose nothing: they
 * read by sequence on any wake (gateway/subscriptions/topic-listener.ts), and a writer that died
 * between its commit and its wake must wake the topic when its work is taken up again.
 */
export const WAKE_AFTER_COMMIT = 'app.topic_wake_after_commit';

/** The feed's trigger function, leaving the `NOTIFY` to writers that set WAKE_AFTER_COMMIT: for a migration. */
export function wakeAfterCommitDdl(feed: TopicFeed): string {
  const [schema] = feed.events.split('.');
  return `create or replace function ${schema}."notify_topic_event"() returns trigger language plpgsql as $fn$
     begin
       if coalesce(current_setting('${WAKE_AFTER_COMMIT}', true), '') <> 'on' then perform pg_notify('${feed.channel}', new."topic"); end if;
       return null;
     end $fn$`;
}

/** Wakes a topic's readers, outside any transaction (`em` not in one): after the commit of a writer that set WAKE_AFTER_COMMIT. */
export async function wakeTopic(em: EntityManager, feed: TopicFeed, topic: string): Promise<void> {
  // raw SQL: NOTIFY has no entity form
  await em.execute(`select pg_notify(?, ?)`, [feed.channel, topic]);
}

export interface TopicEvent {
  readonly topic: string;
  readonly type: string;
  /** What subscribers receive (with `sequence` added); must match the subscription's event type. */
  readonly payload: Record<string, unknown>;
}

/** Appends an event in the caller's transaction and returns its sequence number. */
export async function publishToTopic(em: EntityManager, feed: TopicFeed, event: TopicEvent): Promise<number> {
  // raw SQL: locking, the head row's upsert serializes publishers of a topic and numbers the event in one statement.
  const [row] = await em.execute<Array<{ sequence: string }>>(
    `with head as (
       insert into ${feed.heads} ("topic", "last_sequence") values (?, 1)
       on conflict ("topic") do update set "last_sequence" = ${feed.heads}."last_sequence" + 1
       returning "last_sequence"
     )
     insert into ${feed.events} ("topic", "sequence", "type", "payload")
     select ?, "last_sequence", ?, ?::jsonb from head returning "sequence"`,
    [event.topic, event.topic, event.type, JSON.stringify(event.payload)],
  );
  return Number(row!.sequence);
}

export interface StoredTopicEvent {
  readonly sequence: number;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly occurredAt: Date;
}

/** A topic's events after `after`, oldest first. */
export async function readTopic(
  em: EntityManager,
  feed: TopicFeed,
  topic: string,
  after: number,
  limit: number,
): Promise<StoredTopicEvent[]> {
  // raw SQL: the shared reader of every service's feed table, which the feed names (no entity class at this layer).
  const rows = await em.execute<Array<{ sequence: string; type: string; payload: Record<string, unknown>; occurred_at: Date }>>(
    `select "sequence", "type", "payload", "occurred_at" from ${feed.events}
     where "topic" = ? and "sequence" > ? order by "sequence" limit ?`,
    [topic, after, limit],
  );
  return rows.map((row) => ({ sequence: Number(row.sequence), type: row.type, payload: row.payload, occurredAt: row.occurred_at }));
}
