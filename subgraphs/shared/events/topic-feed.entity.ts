import { defineEntity, p } from '@mikro-orm/core';

/*
 * A service's topic feed (topic-feed.ts), in the service's own schema. Events are appended by one
 * statement that takes the topic's next sequence under its head row (`insert … on conflict … returning`),
 * which stays raw SQL; the entities describe the columns.
 */

/**
 * The feed's two entities, made afresh for each service's entity list, so two services' ORMs never
 * share (and both run discovery on) one definition.
 */
export function topicFeedEntities() {
  /** The last sequence number given out per topic. */
  const TopicHeadEntity = defineEntity({
    name: 'TopicHead',
    tableName: 'topic_head',
    properties: {
      topic: p.text().primary(),
      lastSequence: p.bigint('number'),
    },
  });

  /** One event of a topic, numbered in commit order. */
  const TopicEventEntity = defineEntity({
    name: 'TopicEvent',
    tableName: 'topic_event',
    properties: {
      topic: p.text().primary(),
      sequence: p.bigint('number').primary(),
      type: p.text(),
      payload: p.json<Record<string, unknown>>(),
      occurredAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
    },
  });

  return [TopicHeadEntity, TopicEventEntity] as const;
}
