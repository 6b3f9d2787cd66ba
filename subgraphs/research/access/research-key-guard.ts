import { raw } from '@mikro-orm/postgresql';
import type { ResearchKeyAccess, ResearchScope } from '../../../contracts/access.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import { ResearchApiKeyEntity } from '../keys/api-key.entity.js';
import { ResearchError } from '../research.errors.js';
import { bearerKey, hashKey, KEY_PREFIX, looksLikeKey, sameDigest } from './key-secret.js';
import type { WorkspaceActor } from './workspace-actor.js';

/** The key a research call was admitted for. */
export interface ResearchCaller extends WorkspaceActor {
  readonly keyId: string;
  readonly scopes: readonly ResearchScope[];
}

declare module '../../shared/contracts/implementation.js' {
  interface Callers {
    researchKey: ResearchCaller;
  }
}

/** How long `lastUsedAt` may lag behind the key's last call. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The guard of every `researchKey(…)` operation: `Authorization: Bearer rk_…`, found by
 * its SHA-256 on every call (no cache, so a revocation or rotation applies at once on
 * every instance) and compared again in constant time; then every scope the contract
 * names (403 naming the first missing one). `lastUsedAt` is written at most once a
 * minute. Invalid input is refused after the same checks, without writing anything.
 */
export class ResearchKeyGuard implements Guard<ResearchKeyAccess> {
  /** A bearer credential that is a research key by its prefix (`rk_`), valid or not. */
  presents(ctx: SubgraphContext): boolean {
    return bearerKey(ctx.headers.authorization)?.startsWith(KEY_PREFIX) === true;
  }

  async admit(ctx: SubgraphContext, access: ResearchKeyAccess): Promise<ResearchCaller> {
    const { caller, touch } = await this.authenticate(ctx, access);
    if (touch) await ctx.em.nativeUpdate(ResearchApiKeyEntity, { id: caller.keyId }, { lastUsedAt: raw('now()') });
    return caller;
  }

  async refuse(ctx: SubgraphContext, access: ResearchKeyAccess): Promise<void> {
    await this.authenticate(ctx, access);
  }

  private async authenticate(ctx: SubgraphContext, access: ResearchKeyAccess) {
    const presented = bearerKey(ctx.headers.authorization);
    if (presented === undefined) throw ResearchError.missingKey();
    if (!looksLikeKey(presented)) throw ResearchError.invalidKey();
    const hash = hashKey(presented);
    // Read apart from the request's identity map: the call's own reads of this key must see the touch below.
    const key = await ctx.em.findOne(ResearchApiKeyEntity, { keyHash: hash }, { populate: ['keyHash'], disableIdentityMap: true });
    // The lookup went through the hash index; the digests are compared again in constant time.
    if (!key || !sameDigest(key.keyHash, hash)) throw ResearchError.invalidKey();
    if (key.revokedAt) throw ResearchError.keyRevoked();
    const missing = access.scopes.find((scope) => !key.scopes.includes(scope));
    if (missing) throw ResearchError.insufficientScope(missing);
    const caller: ResearchCaller = { keyId: key.id, workspaceId: key.workspaceId, mode: key.mode, scopes: key.scopes };
    const touch = !key.lastUsedAt || key.lastUsedAt.getTime() < Date.now() - TOUCH_INTERVAL_MS;
    return { caller, touch };
  }
}
