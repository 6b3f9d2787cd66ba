import type { Logger } from '../runtime/logger.js';
import type { RequestHeaders } from '../subgraphs/shared/context.js';

/** The gateway's per-request context: what the edge learned about the caller. */
export interface GatewayContext {
  readonly headers: RequestHeaders;
  readonly requestId: string;
  readonly clientIp: string | undefined;
  /** Absolute base of links the services write (mails): `PUBLIC_BASE_URL`, else the request's origin. */
  readonly baseUrl?: string;
  readonly logger: Logger;
  /** Response `extensions` of the subgraphs this request reached, merged; read by the edge. */
  readonly subgraphExtensions: Record<string, unknown>;
}
