import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKeyScope } from '../../../contracts/access.js';
import type { ContractInput } from '../../../contracts/operation.js';
import type { iamCreateApiKey } from '../../../contracts/operations/api-keys.contract.js';
import type { ApiKeyData } from '../../../contracts/operations/iam-types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { OperationsError } from '../operations.errors.js';
import { sha256Hex } from './account-tokens.js';

/** The fixed prefix of every key: it tells a leaked secret apart in logs and scanners. */
export const API_KEY_PREFIX = 'qsk_';
/** Characters of a key shown in settings. */
const SHOWN = 12;

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  user_id: string;
  label: string;
  prefix: string;
  scopes: ApiKeyScope[];
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

export const apiKeyData = (row: ApiKeyRow): ApiKeyData => ({
  id: row.id,
  label: row.label,
  prefix: row.prefix,
  scopes: row.scopes,
  user_id: row.user_id,
  organization_id: row.organization_id,
  expires_at: iso(row.expires_at)!,
  revoked_at: iso(row.revoked_at),
  last_used_at: iso(row.last_used_at),
  created_at: iso(row.created_at)!,
  status: row.revoked_at ? 'revoked' : new Date(row.expires_at) <= new Date() ? 'expired' : 'active',
});

type NewKey = ContractInput<typeof iamCreateApiKey>;

/** `ci` → `ci-v2`, `ci-v2` → `ci-v3`: the label of a rotated key. */
export function rotatedLabel(label: string): string {
  const match = /^(.*)-v(\d+)$/.exec(label);
  return match ? `${match[1]}-v${Number(match[2]) + 1}` : `${label}-v2`;
}

/**
 * Business API keys (seed part B): a secret shown once, of which only the SHA-256 and the
 * first 12 characters are kept; owned by a user in one organization. An Admin manages every
 * key of the organization, other users their own; another organization's key is not found.
 */
export class ApiKeysService {
  async create(em: EntityManager, principal: Principal, input: NewKey) {
    if (!principal.organizationId) throw OperationsError.organizationRequired();
    return this.insert(em, principal.organizationId, principal.userId, input);
  }

  private async insert(em: EntityManager, organizationId: string, userId: string, input: NewKey) {
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [row] = await em.execute<ApiKeyRow[]>(
      `insert into "operations"."api_key" ("organization_id", "user_id", "label", "prefix", "key_hash", "scopes", "expires_at")
       values (?, ?, ?, ?, ?, ?::text[], now() + make_interval(days => ?)) returning *`,
      [
        organizationId,
        userId,
        input.label,
        key.slice(0, SHOWN),
        sha256Hex(key),
        `{${[...new Set(input.scopes)].map((scope) => `"${scope}"`).join(',')}}`,
        input.expires_in_days,
      ],
    );
    return { key, api_key: apiKeyData(row!) };
  }

  list(em: EntityManager, principal: Principal, page: { cursor?: string; limit: number }) {
    const where = ['"organization_id" = ?'];
    const params: unknown[] = [principal.organizationId];
    if (!this.managesAll(principal)) {
      where.push('"user_id" = ?');
      params.push(principal.userId);
    }
    return cursorList(em, { table: '"operations"."api_key"', where, params, orderBy: 'created_at', direction: 'desc' }, page, (row) =>
      apiKeyData(row as unknown as ApiKeyRow),
    );
  }

  async revoke(em: EntityManager, principal: Principal, keyId: string) {
    await this.visible(em, principal, keyId);
    const [row] = await em.execute<ApiKeyRow[]>(
      `update "operations"."api_key" set "revoked_at" = coalesce("revoked_at", now()) where "id" = ? returning *`,
      [keyId],
    );
    return apiKeyData(row!);
  }

  /** A new key like the old one (owner, scopes, lifetime), labelled `-v2`; the old one stays until revoked. */
  async rotate(em: EntityManager, principal: Principal, keyId: string) {
    const old = await this.visible(em, principal, keyId);
    const days = Math.max(1, Math.round((new Date(old.expires_at).getTime() - new Date(old.created_at).getTime()) / 86_400_000));
    return this.insert(em, old.organization_id, old.user_id, {
      label: rotatedLabel(old.label).slice(0, 200),
      scopes: old.scopes,
      expires_in_days: days,
    });
  }

  private managesAll(principal: Principal): boolean {
    return principal.superAdmin || principal.roles.includes('Admin');
  }

  private async visible(em: EntityManager, principal: Principal, keyId: string): Promise<ApiKeyRow> {
    const [row] = await em.execute<ApiKeyRow[]>(`select * from "operations"."api_key" where "id" = ? and "organization_id" = ?`, [
      keyId,
      principal.organizationId,
    ]);
    if (!row || (!this.managesAll(principal) && row.user_id !== principal.userId)) throw OperationsError.apiKeyNotFound();
    return row;
  }
}
