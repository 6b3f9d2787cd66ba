import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The last sequence number of a topic of the operations feed (see shared/events/topic-feed.ts). */
export const TopicHeadEntity = defineEntity({
  name: 'TopicHead',
  tableName: 'topic_head',
  properties: {
    topic: p.text().primary(),
    lastSequence: p.bigint('number'),
  },
});

export type TopicHead = InferEntity<typeof TopicHeadEntity>;

/** An event of a topic of the operations feed, read by GraphQL subscriptions in `sequence` order. */
export const TopicEventEntity = defineEntity({
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

export type TopicEvent = InferEntity<typeof TopicEventEntity>;
