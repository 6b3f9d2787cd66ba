import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyEntity } from './api-key.entity.js';
import { newKeySecret } from './api-key-secret.js';
import type { IssuedKey } from './key-views.js';
import { limitsOf, type PlanName } from '../../../contracts/library/plans.js';

export interface KeyRequest {
  readonly email: string;
  readonly org: string | null;
  readonly plan: PlanName;
  readonly source: 'register' | 'admin' | 'account';
  /** The Qantara account creating the key signed in. */
  readonly ownerUserId?: string;
}

/** Creates a key row and returns the key in clear, once; only its SHA-256 is stored. */
export async function issueKey(em: EntityManager, request: KeyRequest, now: Date): Promise<IssuedKey> {
  const secret = newKeySecret();
  const key = em.create(ApiKeyEntity, {
    keyHash: secret.hash,
    prefix: secret.prefix,
    email: request.email,
    org: request.org,
    plan: request.plan,
    status: 'active',
    rpdOverride: null,
    source: request.source,
    ownerUserId: request.ownerUserId ?? null,
    createdAt: now,
  });
  await em.flush();
  return { id: key.id, key: secret.key, plan: key.plan, limits: limitsOf(key.plan, null) };
}
