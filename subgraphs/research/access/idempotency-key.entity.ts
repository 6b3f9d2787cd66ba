import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { KeyMode } from '../../../contracts/research/account-types.js';

/**
 * A remembered research write (subgraphs/shared/idempotency.ts): per workspace, key mode, operation and
 * Idempotency-Key, the request's hash and the answer to replay. Claimed with `insert … on conflict`, in raw SQL.
 */
export const ResearchIdempotencyKeyEntity = defineEntity({
  name: 'ResearchIdempotencyKey',
  tableName: 'idempotency_key',
  properties: {
    workspaceId: p.text().primary(),
    mode: p.text().$type<KeyMode>().primary(),
    operation: p.text().primary(),
    key: p.uuid().primary(),
    requestHash: p.character().length(64),
    result: p.json<unknown>(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type ResearchIdempotencyKey = InferEntity<typeof ResearchIdempotencyKeyEntity>;
