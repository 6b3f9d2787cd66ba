import type { Context } from 'koa';

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
