import type { Limits } from '../../../contracts/library/plans.js';
import type { Windows } from './windows.js';

export interface RateWindowState {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds when the window resets. */
  readonly reset: number;
}

/**
 * A key's two windows after (or instead of) counting a call. Set on
 * `ctx.extensions.rateLimit`, it is what the edge turns into `X-RateLimit-*`,
 * `X-Quota-*`, `RateLimit-Policy` and `RateLimit` headers.
 */
export interface RateLimitState {
  readonly minute: RateWindowState;
  readonly day: RateWindowState;
}

export interface WindowCounts {
  /** Calls counted in the current minute window. */
  readonly minute: number;
  /** Calls counted in the current UTC day. */
  readonly day: number;
}

export function rateLimitState(limits: Pick<Limits, 'rpm' | 'rpd'>, counts: WindowCounts, windows: Windows): RateLimitState {
  return {
    minute: { limit: limits.rpm, remaining: Math.max(0, limits.rpm - counts.minute), reset: windows.minuteReset },
    day: { limit: limits.rpd, remaining: Math.max(0, limits.rpd - counts.day), reset: windows.dayReset },
  };
}
