import type { ResearchScope } from '../../../contracts/access.js';
import type { ApiKeyData, KeyMode } from '../../../contracts/research/account-types.js';
import { isoTime, isoTimeOrNull, type DbTime } from '../time.js';

/** A row of `research.api_key` as read by the key services. */
export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  scopes: ResearchScope[];
  created_at: DbTime;
  last_used_at: DbTime | null;
  rotated_at: DbTime | null;
  revoked_at: DbTime | null;
}

export function apiKeyView(row: ApiKeyRow): ApiKeyData {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    mode: row.mode,
    scopes: row.scopes,
    status: row.revoked_at ? 'revoked' : 'active',
    createdAt: isoTime(row.created_at),
    lastUsedAt: isoTimeOrNull(row.last_used_at),
    rotatedAt: isoTimeOrNull(row.rotated_at),
    revokedAt: isoTimeOrNull(row.revoked_at),
  };
}

export const API_KEY_COLUMNS = `"id", "workspace_id", "name", "prefix", "mode", "scopes", "created_at", "last_used_at", "rotated_at", "revoked_at"`;
