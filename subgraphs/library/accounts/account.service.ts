import type { SubgraphContext } from '../../shared/context.js';
import type { Caller } from './access.service.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { keyView, type KeyView } from './key-views.js';
import type { RateLimitState } from './rate-limit-state.js';
import type { UsageRepository } from './usage.repository.js';
import { daysBefore, systemClock, windowsAt, type Clock } from './windows.js';

/** `days` of `/v1/usage`: default 30; anything above 90 is served as 90, anything below 1 as 1. */
export const USAGE_DAYS = { default: 30, max: 90 } as const;

export interface KeyOverview {
  readonly key: KeyView;
  /** Calls counted today and this minute, this one included. */
  readonly usedToday: number;
  readonly usedThisMinute: number;
  readonly rateLimit: RateLimitState;
}

export interface UsageDay {
  readonly date: string;
  readonly calls: number;
  readonly byOperation: ReadonlyArray<{ readonly operation: string; readonly calls: number }>;
}

export interface UsageReport {
  /** Days covered, after capping. */
  readonly days: number;
  readonly from: string;
  readonly to: string;
  readonly total: number;
  /** One row per UTC day, newest first, days without calls included. */
  readonly rows: readonly UsageDay[];
}

/** What a key may learn about itself: `/v1/me` and `/v1/usage`. */
export class AccountService {
  private readonly clock: Clock;

  constructor(
    private readonly usage: UsageRepository,
    options: { readonly clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  async overview(ctx: SubgraphContext, caller: Caller): Promise<KeyOverview> {
    const key = await ctx.em.findOneOrFail(ApiKeyEntity, { id: caller.keyId });
    const lastUsedAt = await this.usage.lastUsedAt(ctx.em, caller.keyId);
    return {
      key: keyView(key, lastUsedAt),
      usedToday: caller.counts.day,
      usedThisMinute: caller.counts.minute,
      rateLimit: caller.rateLimit,
    };
  }

  async report(ctx: SubgraphContext, caller: Caller, requestedDays?: number | null): Promise<UsageReport> {
    const days = Math.min(USAGE_DAYS.max, Math.max(1, Math.trunc(requestedDays ?? USAGE_DAYS.default)));
    const to = windowsAt(this.clock()).day;
    const from = daysBefore(to, days - 1);
    const counts = await this.usage.dailyByOperation(ctx.em, caller.keyId, from, to);
    const byDay = new Map<string, Array<{ operation: string; calls: number }>>();
    for (const count of counts) {
      const list = byDay.get(count.day) ?? [];
      list.push({ operation: count.operation, calls: count.calls });
      byDay.set(count.day, list);
    }
    const rows: UsageDay[] = [];
    for (let offset = 0; offset < days; offset += 1) {
      const date = daysBefore(to, offset);
      const byOperation = byDay.get(date) ?? [];
      rows.push({ date, calls: byOperation.reduce((sum, entry) => sum + entry.calls, 0), byOperation });
    }
    return { days, from, to, total: rows.reduce((sum, row) => sum + row.calls, 0), rows };
  }
}
