import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import type { GapAssessmentData } from '../../../contracts/research/case-types.js';

/** A case: the conversation with the assistant, and what it has gathered so far (`anamnesis`, `gapAssessment`). */
export const ThreadEntity = defineEntity({
  name: 'Thread',
  tableName: 'thread',
  properties: {
    id: p.text().primary(),
    workspaceId: p.text(),
    mode: p.text().$type<KeyMode>(),
    anamnesis: p.json<unknown>(),
    anamnesisHash: p.text(),
    gapAssessment: p.json<GapAssessmentData>(),
    messageCount: p.integer().default(0),
    latestCompletedReportId: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

/**
 * A message of a case, numbered by `position`. An assistant message is `pending` until answered; its
 * credit `charge` is reserved, then settled or refunded.
 */
export const MessageEntity = defineEntity({
  name: 'Message',
  tableName: 'message',
  properties: {
    id: p.text().primary(),
    threadId: p.text(),
    position: p.integer(),
    role: p.text().$type<'user' | 'assistant'>(),
    content: p.text(),
    status: p.text().$type<'pending' | 'complete'>(),
    outcome: p.text().$type<'answered' | 'failed'>().nullable(),
    charge: p.text().$type<'reserved' | 'settled' | 'refunded'>().nullable(),
    // What the provider reported is kept for accounting and never loaded with a message (lazy).
    provider: p.text().nullable().lazy(),
    model: p.text().nullable().lazy(),
    promptTokens: p.integer().nullable().lazy(),
    completionTokens: p.integer().nullable().lazy(),
    upstreamRequestId: p.text().nullable().lazy(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
    completedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type Thread = InferEntity<typeof ThreadEntity>;
export type Message = InferEntity<typeof MessageEntity>;
