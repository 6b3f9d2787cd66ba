import type { EntityManager } from '@mikro-orm/postgresql';
import { requiredKeyScope, type ApiKeyScope, type OperationsAccess, type OperationsRole } from '../../../contracts/access.js';
import type { OperationContract } from '../../../contracts/operation.js';
import type { SubgraphContext } from '../../shared/context.js';
import { OperationsError } from '../operations.errors.js';
import { sha256Hex } from './account-tokens.js';

/** Calls per UTC day of all an organization's keys, by plan (seed part B); Enterprise is unlimited. */
export const DAILY_QUOTA = { free: 1000, pro: 10_000, enterprise: 2_147_483_647 } as const;

/** What the edge turns into `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds of the next UTC midnight). */
export interface ApiQuota {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

export interface KeyCaller {
  readonly keyId: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly roles: OperationsRole[];
  readonly objectIds: string[];
  readonly superAdmin: boolean;
  readonly expiresAt: Date;
}

interface KeyRow {
  id: string;
  organization_id: string;
  user_id: string;
  scopes: ApiKeyScope[];
  expires_at: Date;
  expired: boolean;
  revoked: boolean;
  roles: OperationsRole[];
  object_ids: string[];
  super_admin: boolean;
  owner_usable: boolean;
  api_access: boolean;
  plan: keyof typeof DAILY_QUOTA;
}

/**
 * `X-API-Key` callers: the key is looked up by its SHA-256 on every call (no cache, so a
 * revocation applies at once), must be unexpired and unrevoked and its owner active; the
 * call is counted against the organization's daily quota (committed on its own, exact under
 * concurrency, so every answer to a valid key carries the quota) and `last_used_at` moves;
 * then the key must carry the operation's scope. The owner's roles are checked by the guard
 * as for a signed-in user.
 */
export class ApiKeyAccess {
  constructor(private readonly root: EntityManager) {}

  async admit(ctx: SubgraphContext, secret: string, access: OperationsAccess, contract: OperationContract): Promise<KeyCaller> {
    // raw SQL: key, owner and plan in one round trip on every keyed call
    const [key] = await ctx.em.execute<KeyRow[]>(
      `select k."id", k."organization_id", k."user_id", k."scopes", k."expires_at", k."expires_at" <= now() as "expired",
         k."revoked_at" is not null as "revoked", u."roles", u."object_ids", u."super_admin",
         (u."active" and u."banned_at" is null) as "owner_usable", u."api_access", o."plan"
       from "operations"."api_key" k
       join "operations"."app_user" u on u."id" = k."user_id"
       join "operations"."organization" o on o."id" = k."organization_id"
       where k."key_hash" = ?`,
      [sha256Hex(secret.trim())],
    );
    if (!key) {
      // No organization, so no quota: the headers say so (seed part B: on every response).
      ctx.extensions.apiQuota = { limit: 0, remaining: 0, reset: await this.nextReset(ctx) } satisfies ApiQuota;
      throw OperationsError.apiKeyInvalid('unknown');
    }
    if (key.revoked || !key.owner_usable || key.expired || !key.api_access) {
      await this.report(ctx, key);
      if (key.revoked || !key.owner_usable) throw OperationsError.apiKeyInvalid('revoked');
      if (!key.api_access) throw OperationsError.apiKeyInvalid('disabled');
      throw OperationsError.apiKeyInvalid('expired');
    }
    await this.count(ctx, key);
    const scope = requiredKeyScope(access, contract);
    if (!key.scopes.includes('*') && !key.scopes.includes(scope)) throw OperationsError.apiKeyScopeMissing(scope);
    return {
      keyId: key.id,
      organizationId: key.organization_id,
      userId: key.user_id,
      roles: key.roles,
      objectIds: key.object_ids,
      superAdmin: key.super_admin,
      expiresAt: new Date(key.expires_at),
    };
  }

  /**
   * The quota headers of a call that is refused before it counts (an unusable key, or a key
   * where a user's token is needed): the organization's day as it stands, not counted.
   */
  async report(ctx: SubgraphContext, key: Pick<KeyRow, 'organization_id' | 'plan'>): Promise<void> {
    const limit = DAILY_QUOTA[key.plan];
    // raw SQL: the day's usage and the next UTC midnight by the database clock
    const [row] = await ctx.em.execute<Array<{ count: number | null; reset: number }>>(
      `select (select "count" from "operations"."api_key_usage" where "organization_id" = ? and "day" = (now() at time zone 'utc')::date) as "count",
         extract(epoch from date_trunc('day', now() at time zone 'utc') + interval '1 day')::bigint as "reset"`,
      [key.organization_id],
    );
    ctx.extensions.apiQuota = { limit, remaining: Math.max(0, limit - (row!.count ?? 0)), reset: Number(row!.reset) } satisfies ApiQuota;
  }

  /** The quota headers for a key that is refused where a user's bearer token is needed. */
  async reportFor(ctx: SubgraphContext, secret: string): Promise<void> {
    // raw SQL: key and plan in one round trip
    const [key] = await ctx.em.execute<Array<Pick<KeyRow, 'organization_id' | 'plan'>>>(
      `select k."organization_id", o."plan" from "operations"."api_key" k
       join "operations"."organization" o on o."id" = k."organization_id" where k."key_hash" = ?`,
      [sha256Hex(secret.trim())],
    );
    if (key) await this.report(ctx, key);
    else ctx.extensions.apiQuota = { limit: 0, remaining: 0, reset: await this.nextReset(ctx) } satisfies ApiQuota;
  }

  private async nextReset(ctx: SubgraphContext): Promise<number> {
    // raw SQL: the next UTC midnight by the database clock
    const [row] = await ctx.em.execute<Array<{ reset: number }>>(
      `select extract(epoch from date_trunc('day', now() at time zone 'utc') + interval '1 day')::bigint as "reset"`,
    );
    return Number(row!.reset);
  }

  /** One call against today's quota: a conditional upsert, so concurrent calls never pass the limit. */
  private async count(ctx: SubgraphContext, key: KeyRow): Promise<void> {
    const limit = DAILY_QUOTA[key.plan];
    // raw SQL: atomic upsert-increment of the day's counter, committed on its own
    const [row] = await this.root.fork().execute<Array<{ count: number | null; reset: number }>>(
      `with "used" as (
         insert into "operations"."api_key_usage" as q ("organization_id", "day", "count")
         values (?, (now() at time zone 'utc')::date, 1)
         on conflict ("organization_id", "day") do update set "count" = q."count" + 1 where q."count" < ?
         returning "count"
       ), "touched" as (
         update "operations"."api_key" set "last_used_at" = now() where "id" = ? and exists (select 1 from "used")
       )
       select (select "count" from "used") as "count",
         extract(epoch from date_trunc('day', now() at time zone 'utc') + interval '1 day')::bigint as "reset"`,
      [key.organization_id, limit, key.id],
    );
    const reset = Number(row!.reset);
    const used = row!.count ?? limit;
    const quota: ApiQuota = { limit, remaining: Math.max(0, limit - used), reset };
    ctx.extensions.apiQuota = quota;
    if (row!.count === null) throw OperationsError.apiKeyQuotaExceeded(limit, Math.max(1, reset - Math.floor(Date.now() / 1000)));
  }
}
