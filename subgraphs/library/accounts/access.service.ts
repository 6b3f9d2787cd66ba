import type { SubgraphContext } from '../../shared/context.js';
import { AccountsError } from './accounts.errors.js';
import { bearerKey, hashKey, looksLikeKey, sameDigest } from './api-key-secret.js';
import { limitsOf, planOf, PLANS, type Limits, type PlanName } from './plans.js';
import { rateLimitState, type RateLimitState, type WindowCounts } from './rate-limit-state.js';
import type { UsageRepository } from './usage.repository.js';
import { secondsUntil, systemClock, windowsAt, type Clock, type Windows } from './windows.js';

/** The key a metered call was admitted for. */
export interface Caller {
  readonly keyId: number;
  readonly plan: PlanName;
  /** Limits in force, e.g. `limits.maxLimit` bounds retrieval `limit`. */
  readonly limits: Limits;
  /** The key's windows after counting this call (also on `ctx.extensions.rateLimit`). */
  readonly counts: WindowCounts;
  readonly rateLimit: RateLimitState;
}

export interface LibraryAccessOptions {
  readonly clock?: Clock;
  /**
   * Bench only, never set by the application: skip authentication and counting and
   * act as this key, to measure what they cost (bench/library-auth.ts).
   */
  readonly unmeteredKeyId?: number;
}

const OPERATION = /^[a-z][a-z0-9_.-]{0,63}$/;

/**
 * The gate of every metered library operation (every `/v1` operation but
 * `register`, and their GraphQL fields). A resolver calls it first, with the name
 * its calls are logged under in `/v1/usage`, and passes the caller on:
 *
 * ```ts
 * @Resolver()
 * export class RetrievalResolver {
 *   static readonly inject = [LibraryAccess, RetrievalService];
 *   constructor(private readonly access: LibraryAccess, private readonly retrieval: RetrievalService) {}
 *
 *   @Query(() => RetrieveResult)
 *   async libraryRetrieve(@Ctx() ctx: SubgraphContext, @Arg('q', () => String) q: string) {
 *     const caller = await this.access.admit(ctx, 'retrieve');   // 401 / 429 thrown here
 *     return this.retrieval.retrieve(ctx, q, { maxLimit: caller.limits.maxLimit });
 *   }
 * }
 * ```
 *
 * `admit` reads `Authorization: Bearer <key>`, finds the key by its SHA-256 (its
 * status is read on every call, so an admin's change applies at once), counts the
 * call in PostgreSQL against the minute and UTC-day windows, and records the windows
 * on `ctx.extensions.rateLimit` — before throwing too, so error responses carry the
 * headers whenever a key was given. A refused call counts nothing.
 */
export class LibraryAccess {
  private readonly clock: Clock;

  constructor(
    private readonly usage: UsageRepository,
    private readonly options: LibraryAccessOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  async admit(ctx: SubgraphContext, operation: string): Promise<Caller> {
    if (!OPERATION.test(operation)) throw new Error(`operation name ${operation} is not a usage log name`);
    if (this.options.unmeteredKeyId !== undefined) return this.unmetered(this.options.unmeteredKeyId);
    const presented = bearerKey(ctx.headers.authorization);
    if (presented === undefined) throw AccountsError.missingKey();
    const now = this.clock();
    const windows = windowsAt(now);
    const hash = looksLikeKey(presented) ? hashKey(presented) : undefined;
    const outcome = hash ? await this.usage.admitCall(ctx.em, hash, operation, windows, now) : null;
    // The lookup went through the hash index; the digests are compared again in constant time.
    if (!outcome || !sameDigest(outcome.key.keyHash, hash!)) {
      // An unknown key is answered with the free plan's windows, untouched.
      this.report(ctx, rateLimitState(limitsOf(PLANS.free.name, null), { minute: 0, day: 0 }, windows));
      throw AccountsError.invalidKey();
    }
    const { key } = outcome;
    const limits = limitsOf(key.plan, key.rpdOverride);
    const counts = outcome.counts ?? (await this.usage.peek(ctx.em, key.id, windows));
    const state = rateLimitState(limits, counts, windows);
    this.report(ctx, state);
    if (key.status !== 'active') throw key.status === 'revoked' ? AccountsError.keyRevoked() : AccountsError.keySuspended();
    if (!outcome.counts) throw this.refusal(state, counts, limits, windows, now);
    return { keyId: key.id, plan: planOf(key.plan).name, limits, counts, rateLimit: state };
  }

  private refusal(state: RateLimitState, counts: WindowCounts, limits: Limits, windows: Windows, now: Date): AccountsError {
    if (counts.day >= limits.rpd) return AccountsError.quotaExceeded(state, secondsUntil(windows.dayReset, now));
    return AccountsError.rateLimited(state, secondsUntil(windows.minuteReset, now));
  }

  private report(ctx: SubgraphContext, state: RateLimitState): void {
    ctx.extensions.rateLimit = state;
  }

  private unmetered(keyId: number): Caller {
    const windows = windowsAt(this.clock());
    const limits = limitsOf(PLANS.free.name, null);
    const counts = { minute: 0, day: 0 };
    return { keyId, plan: 'free', limits, counts, rateLimit: rateLimitState(limits, counts, windows) };
  }
}
