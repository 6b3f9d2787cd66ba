import type { LibraryKeyAccess } from '../../../contracts/access.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import { AccountsError } from './accounts.errors.js';
import { bearerKey, hashKey, looksLikeKey, sameDigest } from './api-key-secret.js';
import { limitsOf, planOf, PLANS, type Limits, type PlanName } from '../../../contracts/library/plans.js';
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

declare module '../../shared/contracts/implementation.js' {
  interface Callers {
    libraryKey: Caller;
  }
}

/**
 * The guard of every metered library operation (access `libraryKey(usage)` in its
 * contract; every `/v1` operation but `register`). `admit` reads `Authorization:
 * Bearer <key>`, finds the key by its SHA-256 (its status is read on every call, so an
 * admin's change applies at once), counts the call in PostgreSQL against the minute
 * and UTC-day windows under the contract's usage name, and records the windows on
 * `ctx.extensions.rateLimit` — before throwing too, so error responses carry the
 * headers, a missing or unknown key's with the free plan's windows, untouched. A refused call counts nothing: `refuse`, run for
 * input the contract refuses, authenticates and reports the windows without counting,
 * and `refund` gives back the count of input the service itself refused (422).
 */
export class LibraryAccess implements Guard<LibraryKeyAccess> {
  private readonly clock: Clock;

  constructor(
    private readonly usage: UsageRepository,
    private readonly options: LibraryAccessOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  async admit(ctx: SubgraphContext, access: LibraryKeyAccess): Promise<Caller> {
    const operation = access.usage;
    if (!OPERATION.test(operation)) throw new Error(`operation name ${operation} is not a usage log name`);
    if (this.options.unmeteredKeyId !== undefined) return this.unmetered(this.options.unmeteredKeyId);
    const presented = bearerKey(ctx.headers.authorization);
    const now = this.clock();
    const windows = windowsAt(now);
    if (presented === undefined) throw this.missingKey(ctx, windows);
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

  async refuse(ctx: SubgraphContext): Promise<void> {
    if (this.options.unmeteredKeyId !== undefined) return;
    const presented = bearerKey(ctx.headers.authorization);
    const windows = windowsAt(this.clock());
    if (presented === undefined) throw this.missingKey(ctx, windows);
    const hash = looksLikeKey(presented) ? hashKey(presented) : undefined;
    const key = hash ? await this.usage.findKey(ctx.em, hash) : null;
    if (!key || !sameDigest(key.keyHash, hash!)) {
      this.report(ctx, rateLimitState(limitsOf(PLANS.free.name, null), { minute: 0, day: 0 }, windows));
      throw AccountsError.invalidKey();
    }
    const counts = await this.usage.peek(ctx.em, key.id, windows);
    this.report(ctx, rateLimitState(limitsOf(key.plan, key.rpdOverride), counts, windows));
    if (key.status !== 'active') throw key.status === 'revoked' ? AccountsError.keyRevoked() : AccountsError.keySuspended();
  }

  async refund(ctx: SubgraphContext, access: LibraryKeyAccess, caller: unknown): Promise<void> {
    const admitted = caller as Caller;
    if (this.options.unmeteredKeyId !== undefined) return;
    const windows = windowsAt(this.clock());
    await this.usage.refundCall(ctx.em, admitted.keyId, access.usage, windows);
    const counts = { minute: Math.max(0, admitted.counts.minute - 1), day: Math.max(0, admitted.counts.day - 1) };
    this.report(ctx, rateLimitState(admitted.limits, counts, windows));
  }

  private refusal(state: RateLimitState, counts: WindowCounts, limits: Limits, windows: Windows, now: Date): AccountsError {
    if (counts.day >= limits.rpd) return AccountsError.quotaExceeded(state, secondsUntil(windows.dayReset, now));
    return AccountsError.rateLimited(state, secondsUntil(windows.minuteReset, now));
  }

  /** No key: answered, like an unknown one, with the free plan's windows, untouched. */
  private missingKey(ctx: SubgraphContext, windows: Windows): AccountsError {
    this.report(ctx, rateLimitState(limitsOf(PLANS.free.name, null), { minute: 0, day: 0 }, windows));
    return AccountsError.missingKey();
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
