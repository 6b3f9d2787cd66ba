/** A counting window as the library's accounts report it in `extensions.rateLimit`. */
export interface RateWindow {
  readonly limit: number;
  readonly remaining: number;
  /** When the window resets, in epoch seconds. */
  readonly reset: number;
}

export interface RateLimitExtension {
  readonly minute: RateWindow;
  readonly day: RateWindow;
}

function isWindow(value: unknown): value is RateWindow {
  const window = value as RateWindow | undefined;
  return typeof window?.limit === 'number' && typeof window.remaining === 'number' && typeof window.reset === 'number';
}

/**
 * Turns the facts subgraphs report about a request into HTTP headers, in one place
 * for the REST facade and `/graphql` alike: for a library key `X-RateLimit-*` (minute
 * window), `X-Quota-*` (UTC day) and the IETF `RateLimit-Policy` / `RateLimit` fields; for an
 * operations API key `X-RateLimit-*` of its organization's daily quota.
 */
export function edgeHeaders(
  extensions: Readonly<Record<string, unknown>>,
  nowSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
  // A stored answer to a repeated Idempotency-Key says so (operations).
  const replayed: Record<string, string> = extensions.idempotentReplayed === true ? { 'Idempotent-Replayed': 'true' } : {};
  // An operations API key's daily quota (seed part B): the three headers, counting the UTC day.
  if (isWindow(extensions.apiQuota)) {
    const quota = extensions.apiQuota;
    return {
      ...replayed,
      'X-RateLimit-Limit': String(quota.limit),
      'X-RateLimit-Remaining': String(quota.remaining),
      'X-RateLimit-Reset': String(quota.reset),
    };
  }
  const rateLimit = extensions.rateLimit as Partial<RateLimitExtension> | undefined;
  if (!rateLimit || !isWindow(rateLimit.minute) || !isWindow(rateLimit.day)) return replayed;
  const { minute, day } = rateLimit;
  const seconds = (window: RateWindow) => Math.max(0, window.reset - nowSeconds);
  return {
    ...replayed,
    'X-RateLimit-Limit': String(minute.limit),
    'X-RateLimit-Remaining': String(minute.remaining),
    'X-RateLimit-Reset': String(minute.reset),
    'X-Quota-Limit': String(day.limit),
    'X-Quota-Remaining': String(day.remaining),
    'X-Quota-Reset': String(day.reset),
    'RateLimit-Policy': `"minute";q=${minute.limit};w=60, "day";q=${day.limit};w=86400`,
    RateLimit: `"minute";r=${minute.remaining};t=${seconds(minute)}, "day";r=${day.remaining};t=${seconds(day)}`,
  };
}
