import type { ResearchKeyAccess, ResearchScope } from '../../../contracts/access.js';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import { ResearchError } from '../research.errors.js';
import { bearerKey, hashKey, looksLikeKey, sameDigest } from './key-secret.js';
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

interface KeyRow {
  id: string;
  workspace_id: string;
  mode: KeyMode;
  scopes: ResearchScope[];
  key_hash: string;
  revoked: boolean;
  seen_long_ago: boolean;
}

/**
 * The guard of every `researchKey(…)` operation: `Authorization: Bearer rk_…`, found by
 * its SHA-256 on every call (no cache, so a revocation or rotation applies at once on
 * every instance) and compared again in constant time; then every scope the contract
 * names (403 naming the first missing one). `lastUsedAt` is written at most once a
 * minute. Invalid input is refused after the same checks, without writing anything.
 */
export class ResearchKeyGuard implements Guard<ResearchKeyAccess> {
  async admit(ctx: SubgraphContext, access: ResearchKeyAccess): Promise<ResearchCaller> {
    const { caller, touch } = await this.authenticate(ctx, access);
    if (touch) await ctx.em.execute(`update "research"."api_key" set "last_used_at" = now() where "id" = ?`, [caller.keyId]);
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
    const [row] = await ctx.em.execute<KeyRow[]>(
      `select "id", "workspace_id", "mode", "scopes", "key_hash", "revoked_at" is not null as "revoked",
         ("last_used_at" is null or "last_used_at" < now() - interval '1 minute') as "seen_long_ago"
       from "research"."api_key" where "key_hash" = ?`,
      [hash],
    );
    // The lookup went through the hash index; the digests are compared again in constant time.
    if (!row || !sameDigest(row.key_hash, hash)) throw ResearchError.invalidKey();
    if (row.revoked) throw ResearchError.keyRevoked();
    const missing = access.scopes.find((scope) => !row.scopes.includes(scope));
    if (missing) throw ResearchError.insufficientScope(missing);
    const caller: ResearchCaller = { keyId: row.id, workspaceId: row.workspace_id, mode: row.mode, scopes: row.scopes };
    return { caller, touch: row.seen_long_ago };
  }
}
