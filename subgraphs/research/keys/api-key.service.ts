import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { ResearchScope } from '../../../contracts/access.js';
import type { ContractInput } from '../../../contracts/operation.js';
import type { ApiKeyData, KeyMode } from '../../../contracts/research/account-types.js';
import type { researchCreateApiKey } from '../../../contracts/research/keys.contract.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { newId, newKeySecret } from '../access/key-secret.js';
import { ResearchError } from '../research.errors.js';
import { ResearchApiKeyEntity, type ResearchApiKey } from './api-key.entity.js';
import { apiKeyView } from './api-key.views.js';

export interface IssuedKey extends ApiKeyData {
  readonly key: string;
}

export interface KeyRequest {
  readonly name: string;
  readonly scopes: readonly ResearchScope[];
  readonly mode: KeyMode;
}

/** Keys of a workspace: issued with their secret once, rotated (same id, new secret) or revoked at once. */
export class ApiKeyService {
  async issue(em: EntityManager, workspaceId: string, request: KeyRequest): Promise<IssuedKey> {
    const secret = newKeySecret(request.mode);
    const key = em.create(ResearchApiKeyEntity, {
      id: newId('key'),
      workspaceId,
      name: request.name,
      keyHash: secret.hash,
      prefix: secret.prefix,
      mode: request.mode,
      scopes: [...request.scopes],
    });
    await em.flush();
    return { ...apiKeyView(key), key: secret.key };
  }

  async list(em: EntityManager, caller: WorkspaceActor): Promise<{ apiKeys: ApiKeyData[] }> {
    const keys = await em.find(ResearchApiKeyEntity, { workspaceId: caller.workspaceId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return { apiKeys: keys.map(apiKeyView) };
  }

  create(em: EntityManager, caller: WorkspaceActor, input: ContractInput<typeof researchCreateApiKey>): Promise<IssuedKey> {
    return this.issue(em, caller.workspaceId, { name: input.name, scopes: input.scopes, mode: input.mode ?? caller.mode });
  }

  /** A new secret for the key; the old one is unknown from this commit on. */
  async rotate(em: EntityManager, caller: WorkspaceActor, apiKeyId: string): Promise<IssuedKey> {
    const current = await this.find(em, caller, apiKeyId);
    const secret = newKeySecret(current.mode);
    const key = await this.updateLive(em, caller, apiKeyId, { keyHash: secret.hash, prefix: secret.prefix, rotatedAt: raw('now()') });
    return { ...apiKeyView(key), key: secret.key };
  }

  async revoke(em: EntityManager, caller: WorkspaceActor, apiKeyId: string): Promise<ApiKeyData> {
    await this.find(em, caller, apiKeyId);
    return apiKeyView(await this.updateLive(em, caller, apiKeyId, { revokedAt: raw('now()') }));
  }

  /**
   * Changes the key only while it is not revoked (the condition is part of the update, so a revocation
   * committed since `find` wins) and answers it as stored, times from the database clock.
   */
  private async updateLive(
    em: EntityManager,
    caller: WorkspaceActor,
    apiKeyId: string,
    change: Parameters<typeof em.nativeUpdate<ResearchApiKey>>[2],
  ): Promise<ResearchApiKey> {
    const where = { id: apiKeyId, workspaceId: caller.workspaceId };
    const updated = await em.nativeUpdate(ResearchApiKeyEntity, { ...where, revokedAt: null }, change);
    if (updated === 0) throw ResearchError.apiKeyAlreadyRevoked();
    return em.findOneOrFail(ResearchApiKeyEntity, where, { refresh: true });
  }

  private async find(em: EntityManager, caller: WorkspaceActor, apiKeyId: string): Promise<ResearchApiKey> {
    const key = await em.findOne(ResearchApiKeyEntity, { id: apiKeyId, workspaceId: caller.workspaceId });
    if (!key) throw ResearchError.apiKeyNotFound();
    if (key.revokedAt) throw ResearchError.apiKeyAlreadyRevoked();
    return key;
  }
}
