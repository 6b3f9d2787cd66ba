import type { Middleware } from 'koa';

/**
 * Cross-origin calls from browsers (`CORS_ORIGINS`) on the REST families, `/graphql` and the
 * MCP endpoints. An origin named exactly may send credentials (cookies); a `*` entry admits
 * every other origin without them. Any other origin gets no CORS headers at all, and nothing
 * changes for requests without `Origin`. The MCP endpoints keep their own origin check (the
 * transport's DNS-rebinding defence): named origins are added to it, the wildcard is not.
 */

/** Paths whose answers browsers on the configured origins may read. */
const PREFIXES = ['/api/v1', '/api/chat', '/v1', '/mcp', '/graphql'];
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** Request headers the API reads. */
const ALLOW_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'accept-language',
  'x-api-key',
  'x-organization-id',
  'x-request-id',
  'idempotency-key',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
].join(', ');
/** Response headers scripts may read besides the CORS-safelisted ones: limits, quotas, replays, where and when. */
export const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'location',
  'retry-after',
  'idempotent-replayed',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-quota-limit',
  'x-quota-remaining',
  'x-quota-reset',
  'ratelimit-policy',
  'ratelimit',
  'www-authenticate',
  'mcp-session-id',
].join(', ');
/** How long a browser may cache a preflight's answer, in seconds. */
const MAX_AGE = '600';

const inScope = (path: string) => PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export interface CorsPolicy {
  /** `CORS_ORIGINS`: origins (`scheme://host[:port]`) and optionally `*`. */
  readonly origins: readonly string[];
  /** Paths answered by an endpoint that applies its own origin check (MCP): the wildcard does not reach them. */
  readonly ownOriginCheck?: readonly string[];
}

export function cors(policy: CorsPolicy): Middleware {
  const named = new Set(policy.origins.filter((origin) => origin !== '*'));
  const wildcard = policy.origins.includes('*');
  const guarded = new Set(policy.ownOriginCheck ?? []);
  return async (ctx, next) => {
    if (named.size === 0 && !wildcard) return next();
    if (!inScope(ctx.path)) return next();
    ctx.vary('Origin');
    const origin = ctx.get('origin');
    const exact = origin !== '' && named.has(origin);
    const allowed = exact || (origin !== '' && wildcard && !guarded.has(ctx.path));
    if (!allowed) return next();
    ctx.set('Access-Control-Allow-Origin', exact ? origin : '*');
    if (exact) ctx.set('Access-Control-Allow-Credentials', 'true');
    ctx.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
    const preflight = ctx.method === 'OPTIONS' && ctx.get('access-control-request-method') !== '';
    if (!preflight) return next();
    ctx.vary('Access-Control-Request-Method');
    ctx.vary('Access-Control-Request-Headers');
    ctx.set('Access-Control-Allow-Methods', METHODS);
    ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
    ctx.set('Access-Control-Max-Age', MAX_AGE);
    ctx.status = 204;
  };
}
