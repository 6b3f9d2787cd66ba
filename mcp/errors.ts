import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceName } from '../contracts/operation.js';
import { researchBilling } from '../contracts/research/billing.contract.js';
import type { FacadeError } from '../edge/facade-error.js';
import { isResource } from '../edge/mcp-tools.js';

/**
 * How a refused or failed call reads over MCP: `{code, message}` (the seed's MCP error
 * body), plus the facts a caller can act on — the scope a key lacks, the field at fault,
 * when to retry. A tool answers it as a tool error (`isError`, so the model sees it); a
 * resource read as a JSON-RPC error carrying it as `data`.
 */
export interface McpErrorBody {
  readonly code: string;
  readonly message: string;
  readonly [fact: string]: unknown;
}

const BILLING_URI = isResource(researchBilling.mcp) ? researchBilling.mcp.uri : '/billing';

/** Per service, where its MCP wording differs from its REST one. */
const WORDING: Readonly<Partial<Record<ServiceName, (error: FacadeError, apiUrl: string) => string | undefined>>> = {
  // No credits: the message points to the billing resource rather than to a REST route.
  research: (error, apiUrl) =>
    error.status === 402
      ? `Not enough credits: this needs ${String(error.meta.requiredCredits)}, the workspace holds ${String(error.meta.creditBalance)}. Read the billing resource ${apiUrl}${BILLING_URI} for the balance, pricing and top-up options.`
      : undefined,
};

export function mcpErrorBody(service: ServiceName, error: FacadeError, apiUrl: string): McpErrorBody {
  const code = error.code.toLowerCase();
  const message = WORDING[service]?.(error, apiUrl) ?? error.message;
  if (error.status === 402) return { code, message };
  const facts: Record<string, unknown> = {};
  if (typeof error.meta.requiredScope === 'string') facts.requiredScope = error.meta.requiredScope;
  if (typeof error.meta.retryAfter === 'number') facts.retryAfter = error.meta.retryAfter;
  if (error.param) facts.param = error.param;
  if (error.details) facts.details = error.details;
  return { code, message, ...facts, ...error.truncation };
}

/** JSON-RPC codes of a refused resource read: MCP's "resource not found", else one code for any other refusal. */
export const RESOURCE_NOT_FOUND = -32002;
export const REFUSED = -32003;

export function resourceError(service: ServiceName, error: FacadeError, apiUrl: string): McpError {
  const body = mcpErrorBody(service, error, apiUrl);
  const code = error.status === 404 ? RESOURCE_NOT_FOUND : error.status >= 500 ? ErrorCode.InternalError : REFUSED;
  return new McpError(code, body.message, body);
}
