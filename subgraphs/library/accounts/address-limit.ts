import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicAccess } from '../../../contracts/access.js';
import { OPEN_ROUTE_LIMITS } from '../../../contracts/library/plans.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import { publicGuard } from '../../shared/contracts/public-guard.js';
import type { SubgraphContext } from '../../shared/context.js';
import { AccountsError } from './accounts.errors.js';
import { AddressWindowEntity } from './counters.entity.js';
import { rateLimitState, type RateLimitState, type WindowCounts } from './rate-limit-state.js';
import { secondsUntil, systemClock, windowsAt, type Clock, type Windows } from './windows.js';

/**
 * Counts one call of an open route (no key) for its client address, atomically in one
 * statement: the minute window restarts when the minute changed, and nothing is counted once
 * either window is full. No row back means refused.
 */
const COUNT = `
insert into "library"."address_window" as w ("address", "day", "minute", "minute_count", "day_count")
values (?, ?::date, ?, 1, 1)
on conflict ("address", "day") do update
set "minute" = excluded."minute",
    "minute_count" = case when w."minute" = excluded."minute" then w."minute_count" + 1 else 1 end,
    "day_count" = w."day_count" + 1
where (w."minute" <> excluded."minute" or w."minute_count" < ?) and w."day_count" < ?
returning "minute_count", "day_count"`;

/**
 * The per-address limit of the library's open routes (`OPEN_ROUTE_LIMITS`). `admit` counts
 * the call and records the windows on `ctx.extensions.rateLimit` (the edge turns them into the
 * same headers a key's calls carry), then refuses a full window with 429 as a key's would be.
 * The counters are shared by every instance through PostgreSQL (docs/adr/0002).
 */
export class AddressLimit {
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async admit(ctx: SubgraphContext): Promise<RateLimitState> {
    const now = this.clock();
    const windows = windowsAt(now);
    const address = ctx.clientIp ?? 'unknown';
    // raw SQL: `on conflict … do update … where` counts or refuses atomically.
    const [counted] = await ctx.em.execute<Array<{ minute_count: number; day_count: number }>>(COUNT, [
      address,
      windows.day,
      windows.minute,
      OPEN_ROUTE_LIMITS.rpm,
      OPEN_ROUTE_LIMITS.rpd,
    ]);
    const counts = counted ? { minute: counted.minute_count, day: counted.day_count } : await this.peek(ctx.em, address, windows);
    const state = rateLimitState(OPEN_ROUTE_LIMITS, counts, windows);
    ctx.extensions.rateLimit = state;
    if (counted) return state;
    if (counts.day >= OPEN_ROUTE_LIMITS.rpd) throw AccountsError.quotaExceeded(state, secondsUntil(windows.dayReset, now));
    throw AccountsError.rateLimited(state, secondsUntil(windows.minuteReset, now));
  }

  /**
   * For `/healthz`, which must answer while the database is down: counts like `admit`, and
   * when counting fails reports the limits with nothing counted instead of failing the probe.
   */
  async admitProbe(ctx: SubgraphContext): Promise<void> {
    try {
      await this.admit(ctx);
    } catch (error) {
      if (error instanceof AccountsError) throw error;
      ctx.extensions.rateLimit = rateLimitState(OPEN_ROUTE_LIMITS, { minute: 0, day: 0 }, windowsAt(this.clock()));
    }
  }

  private async peek(em: EntityManager, address: string, windows: Windows): Promise<WindowCounts> {
    const window = await em.findOne(AddressWindowEntity, { address, day: windows.day }, { disableIdentityMap: true });
    if (!window) return { minute: 0, day: 0 };
    return { minute: window.minute === windows.minute ? window.minuteCount : 0, day: window.dayCount };
  }
}

/**
 * The library's guard of open routes: the service methods of `/healthz`, `/register` and the
 * plans count their own calls; the pages the edge answers alone (`/docs`, `/openapi.json`)
 * are counted here when their access says so.
 */
export function openRoutes(limit: AddressLimit): Guard<PublicAccess> {
  return {
    ...publicGuard,
    admitEdge: async (ctx, access) => {
      if (access.perAddress) await limit.admit(ctx);
    },
  };
}
