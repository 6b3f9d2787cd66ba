import type { ApiKeyData } from '../../../contracts/research/account-types.js';
import { isoTime, isoTimeOrNull } from '../time.js';
import type { ResearchApiKey } from './api-key.entity.js';

/** A key as the key services answer it. */
export function apiKeyView(key: ResearchApiKey): ApiKeyData {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    mode: key.mode,
    scopes: key.scopes,
    status: key.revokedAt ? 'revoked' : 'active',
    createdAt: isoTime(key.createdAt),
    lastUsedAt: isoTimeOrNull(key.lastUsedAt ?? null),
    rotatedAt: isoTimeOrNull(key.rotatedAt ?? null),
    revokedAt: isoTimeOrNull(key.revokedAt ?? null),
  };
}
