import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../runtime/logger.js';

/** Headers a subgraph reads, lower-cased; the same whether it runs in-process or over HTTP. */
export type RequestHeaders = Readonly<Record<string, string | undefined>>;

/**
 * What every resolver receives: one EntityManager forked for this request, the
 * caller's headers (credentials, idempotency keys), the request id and a logger.
 */
export interface SubgraphContext {
  readonly em: EntityManager;
  readonly headers: RequestHeaders;
  readonly requestId: string;
  readonly clientIp: string | undefined;
  readonly logger: Logger;
  /**
   * Facts for the edge about this request (e.g. `rateLimit`), returned as response
   * `extensions` and collected by the gateway; never business data.
   */
  readonly extensions: Record<string, unknown>;
}

/** Headers the gateway passes on to subgraphs; everything else stays at the edge. */
export const FORWARDED_HEADERS = [
  'authorization',
  'x-api-key',
  'x-admin-token',
  'x-request-id',
  'x-client-ip',
  'x-base-url',
  'idempotency-key',
  'x-organization-id',
  'user-agent',
  'accept-language',
  'stripe-signature',
  // Set by the edge alone (gateway/data-sources.ts): the access kinds a REST route takes (contracts/access.ts).
  'x-access-kinds',
] as const;

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
