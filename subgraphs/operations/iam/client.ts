import type { SubgraphContext } from '../../shared/context.js';

/** Where a sign-in comes from, for the history, the IP whitelist and the links mailed. */
export interface ClientInfo {
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** Absolute base of links in mails: `PUBLIC_BASE_URL`, else the request's origin as the edge saw it. */
  readonly baseUrl: string;
}

export function clientOf(ctx: SubgraphContext, fallbackBaseUrl: string): ClientInfo {
  return {
    ip: ctx.clientIp ?? null,
    userAgent: ctx.headers['user-agent']?.slice(0, 500) ?? null,
    baseUrl: (ctx.headers['x-base-url'] ?? fallbackBaseUrl).replace(/\/+$/, ''),
  };
}
