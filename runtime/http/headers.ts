import type { Context } from 'koa';
import { FORWARDED_HEADERS, type RequestHeaders } from '../../subgraphs/shared/context.js';

/**
 * The request's headers as one string each (repeated headers joined by `, `), computed
 * once per request: the facade, the gateway context and the subgraph servers all read them.
 */
export function requestHeaders(ctx: Context): Readonly<Record<string, string | undefined>> {
  const cached = ctx.state.headers as Record<string, string | undefined> | undefined;
  if (cached) return cached;
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  ctx.state.headers = headers;
  return headers;
}

/**
 * The headers a subgraph may see, from `FORWARDED_HEADERS` alone: the one list both the
 * gateway's data sources and the subgraph servers filter with, so in-process and remote
 * subgraphs see the same headers.
 */
export function forwardedOnly(headers: RequestHeaders): RequestHeaders {
  const picked: Record<string, string | undefined> = {};
  for (const name of FORWARDED_HEADERS) if (headers[name] !== undefined) picked[name] = headers[name];
  return picked;
}
