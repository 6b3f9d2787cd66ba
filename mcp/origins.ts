/**
 * Which browser origins may call the MCP endpoints (the transport's DNS-rebinding
 * defence): the configured ones (`MCP_ALLOWED_ORIGINS`), those of the site and API base
 * URLs, and — when no base URL is configured — the origin the server is bound to with
 * its loopback aliases. Never the request's own `Host`: a rebound name would match it.
 * A request without `Origin` (not from a browser) is not concerned.
 */
export interface OriginPolicy {
  allows(origin: string): boolean;
}

export interface OriginPolicyOptions {
  /** `MCP_ALLOWED_ORIGINS`. */
  readonly configured: readonly string[];
  /** `SITE_BASE_URL`, `API_BASE_URL`, `PUBLIC_BASE_URL`, those set. */
  readonly baseUrls: readonly string[];
  /** The origin the server is bound to; known once it listens. */
  readonly boundOrigin?: () => string;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

const originOf = (url: string) => new URL(url).origin;

export function originPolicy(options: OriginPolicyOptions): OriginPolicy {
  const fixed = new Set([...options.configured, ...options.baseUrls].map(originOf));
  const useBound = options.baseUrls.length === 0 && options.boundOrigin !== undefined;
  let bound: Set<string> | undefined;
  const boundOrigins = () => {
    if (bound) return bound;
    const url = new URL(options.boundOrigin!());
    const hosts = LOOPBACK.includes(url.hostname) ? LOOPBACK : [url.hostname];
    bound = new Set(hosts.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`));
    return bound;
  };
  return {
    allows(origin) {
      let normalized: string;
      try {
        normalized = originOf(origin);
      } catch {
        return false;
      }
      return fixed.has(normalized) || (useBound && boundOrigins().has(normalized));
    },
  };
}
