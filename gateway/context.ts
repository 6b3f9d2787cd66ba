import type { AccessKind } from '../contracts/access.js';
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
  /**
   * The access kinds the REST route called takes, when it takes only some of its operation's
   * (`RestBinding.accepts`): passed to the service as `x-access-kinds`.
   */
  readonly routeAccess?: { readonly operation: string; readonly kinds: readonly AccessKind[] };
  /** Response `extensions` of the subgraphs this request reached, merged; read by the edge. */
  readonly subgraphExtensions: Record<string, unknown>;
}
