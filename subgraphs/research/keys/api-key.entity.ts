import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ResearchScope } from '../../../contracts/access.js';
import type { KeyMode } from '../../../contracts/research/account-types.js';

/** A scoped research key of a workspace; only the SHA-256 of the secret is stored (`keyHash`). */
export const ResearchApiKeyEntity = defineEntity({
  name: 'ResearchApiKey',
  tableName: 'api_key',
  properties: {
    id: p.text().primary(),
    workspaceId: p.text(),
    name: p.text(),
    keyHash: p.text().lazy(),
    prefix: p.text(),
    mode: p.text().$type<KeyMode>(),
    scopes: p.array().columnType('text[]').$type<ResearchScope[]>(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    lastUsedAt: p.datetime().columnType('timestamptz').nullable(),
    rotatedAt: p.datetime().columnType('timestamptz').nullable(),
    revokedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type ResearchApiKey = InferEntity<typeof ResearchApiKeyEntity>;
