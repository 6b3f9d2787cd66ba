import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { iamCreateApiKey } from '../../../contracts/operations/api-keys.contract.js';
import type { ApiKeyData } from '../../../contracts/operations/iam-types.js';
import { entityCursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { OperationsError } from '../operations.errors.js';
import { sha256Hex } from './account-tokens.js';
import { ApiKeyEntity, type ApiKey } from './api-key.entity.js';

/** The fixed prefix of every key: it tells a leaked secret apart in logs and scanners. */
export const API_KEY_PREFIX = 'qsk_';
/** Characters of a key shown in settings. */
const SHOWN = 12;

export const apiKeyData = (key: ApiKey): ApiKeyData => ({
  id: key.id,
  label: key.label,
  prefix: key.prefix,
  scopes: key.scopes,
  user_id: key.userId,
  organization_id: key.organizationId,
  expires_at: key.expiresAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  created_at: key.createdAt.toISOString(),
  status: key.revokedAt ? 'revoked' : key.expiresAt <= new Date() ? 'expired' : 'active',
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
    const now = new Date();
    const apiKey = em.create(ApiKeyEntity, {
      organizationId,
      userId,
      label: input.label,
      prefix: key.slice(0, SHOWN),
      keyHash: sha256Hex(key),
      scopes: [...new Set(input.scopes)],
      expiresAt: new Date(now.getTime() + input.expires_in_days * 86_400_000),
      createdAt: now,
    });
    await em.flush();
    return { key, api_key: apiKeyData(apiKey) };
  }

  list(em: EntityManager, principal: Principal, page: { cursor?: string; limit: number }) {
    const where = this.managesAll(principal)
      ? { organizationId: principal.organizationId! }
      : { organizationId: principal.organizationId!, userId: principal.userId };
    return entityCursorList(em, { entity: ApiKeyEntity, owner: where, orderBy: 'createdAt', direction: 'desc' }, page, apiKeyData);
  }

  async revoke(em: EntityManager, principal: Principal, keyId: string) {
    const apiKey = await this.visible(em, principal, keyId);
    apiKey.revokedAt ??= new Date();
    await em.flush();
    return apiKeyData(apiKey);
  }

  /** A new key like the old one (owner, scopes, lifetime), labelled `-v2`; the old one stays until revoked. */
  async rotate(em: EntityManager, principal: Principal, keyId: string) {
    const old = await this.visible(em, principal, keyId);
    const days = Math.max(1, Math.round((old.expiresAt.getTime() - old.createdAt.getTime()) / 86_400_000));
    return this.insert(em, old.organizationId, old.userId, {
      label: rotatedLabel(old.label).slice(0, 200),
      scopes: old.scopes,
      expires_in_days: days,
    });
  }

  private managesAll(principal: Principal): boolean {
    return principal.superAdmin || principal.roles.includes('Admin');
  }

  private async visible(em: EntityManager, principal: Principal, keyId: string): Promise<ApiKey> {
    const apiKey = await em.findOne(ApiKeyEntity, { id: keyId, organizationId: principal.organizationId });
    if (!apiKey || (!this.managesAll(principal) && apiKey.userId !== principal.userId)) throw OperationsError.apiKeyNotFound();
    return apiKey;
  }
}
