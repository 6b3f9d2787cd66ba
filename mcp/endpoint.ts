import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Middleware } from 'koa';
import { protectedResourceMetadataPath, type McpServerDeclaration } from '../contracts/mcp.js';
import type { OperationContract } from '../contracts/operation.js';
import { ALL_CONTRACTS } from '../contracts/registry.js';
import type { OperationRunner } from '../edge/execute.js';
import { FacadeError } from '../edge/facade-error.js';
import { BodyError, readJsonBody } from '../runtime/http/body.js';
import type { OriginPolicy } from './origins.js';
import { mcpResources } from '../edge/mcp-resources.js';
import { createMcpServer, type McpCatalog } from './server.js';
import { mcpTools } from '../edge/mcp-tools.js';

/**
 * One MCP endpoint on the Koa app: streamable HTTP, stateless — each POST is answered on
 * its own with a JSON body, so any instance serves any request and nothing is kept
 * between them (docs/adr/0018-mcp-and-discovery.md). In order: the browser `Origin`
 * against the allow-list (403), the method (GET and DELETE 405 with `Allow: POST`: no
 * server stream, no session), the bearer key as the service's REST routes check it (401
 * with `WWW-Authenticate: Bearer resource_metadata=…`), then the messages.
 */

export interface McpEndpointDeps {
  readonly runner: OperationRunner;
  readonly origins: OriginPolicy;
  /** `{api_url}` for this request. */
  readonly apiUrlFor: (ctx: Context) => string;
  /** Answers a refusal in the family's REST error shape (the 401 before any message is read). */
  readonly sendError: (ctx: Context, error: FacadeError) => void;
}

/** Largest JSON-RPC body read (a batch of tool calls with their arguments). */
const BODY_LIMIT = 1_048_576;
const ALLOW = 'POST';
/** Request headers a browser client sends (CORS preflight). */
const ALLOW_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id';
/** Response headers a browser client may read. */
const EXPOSE_HEADERS =
  'www-authenticate, mcp-session-id, x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-quota-limit, x-quota-remaining, x-quota-reset, retry-after';
/** Headers of the HTTP exchange itself, not of the messages: the transport never needs them. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);
/** JSON-RPC codes of a body that cannot be read: not JSON (parse error), too large or not JSON at all (server error). */
const BODY_ERRORS: Readonly<Record<BodyError['status'], number>> = { 400: -32700, 413: -32000, 415: -32000 };

/** The tools and resources of an endpoint: its service's contracts that declare `mcp`. */
export function mcpCatalog(declaration: McpServerDeclaration, contracts: readonly OperationContract[] = ALL_CONTRACTS): McpCatalog {
  const own = contracts.filter((contract) => contract.service === declaration.service);
  return { tools: mcpTools(own), resources: mcpResources(own) };
}

/** A JSON-RPC error without an id, as the transport answers a request it cannot take. */
function rpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Whether the request may go on: an allowed browser origin gets CORS headers, a preflight its answer. */
function admitOrigin(ctx: Context, origins: OriginPolicy): boolean {
  const origin = ctx.get('origin');
  if (origin) {
    if (!origins.allows(origin)) {
      rpcError(ctx, 403, -32000, `Forbidden: origin ${origin} is not allowed`);
      return false;
    }
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    ctx.vary('Origin');
  }
  if (ctx.method === 'OPTIONS') {
    ctx.set('Access-Control-Allow-Methods', ALLOW);
    ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return false;
  }
  if (ctx.method !== 'POST') {
    ctx.set('Allow', ALLOW);
    rpcError(ctx, 405, -32000, `Method not allowed: this endpoint keeps no sessions and opens no streams; ${ALLOW} only.`);
    return false;
  }
  return true;
}

/** `WWW-Authenticate` of a 401 (RFC 6750, RFC 9728): where the metadata is, and whether a presented key was refused. */
function challenge(ctx: Context, metadataUrl: string): string {
  const presented = /^Bearer\s+\S/i.test(ctx.get('authorization'));
  return `Bearer resource_metadata="${metadataUrl}"${presented ? ', error="invalid_token"' : ''}`;
}

/** Whether the caller holds a key the endpoint's admission accepts; otherwise the refusal is answered. */
async function admitCaller(ctx: Context, declaration: McpServerDeclaration, deps: McpEndpointDeps, apiUrl: string): Promise<boolean> {
  try {
    await deps.runner.authenticate(ctx, declaration.admission);
    return true;
  } catch (error) {
    if (!FacadeError.isExpected(error)) ctx.state.logger?.error({ err: error }, 'MCP admission failed');
    const refusal = FacadeError.from(error);
    if (refusal.status === 401) ctx.set('WWW-Authenticate', challenge(ctx, `${apiUrl}${protectedResourceMetadataPath(declaration.path)}`));
    deps.sendError(ctx, refusal);
    return false;
  }
}

/** The messages as the transport reads them (a web Request; the body already parsed). */
function transportRequest(ctx: Context): Request {
  const headers = Object.entries(ctx.headers).flatMap(([name, value]) =>
    value === undefined || HOP_HEADERS.has(name)
      ? []
      : (Array.isArray(value) ? value : [value]).map((item) => [name, item] as [string, string]),
  );
  return new Request(`${ctx.protocol}://${ctx.host}${ctx.originalUrl}`, { method: 'POST', headers });
}

/** Sends the transport's web Response through Koa (headers the operations set stay). */
async function sendResponse(ctx: Context, response: Response): Promise<void> {
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') ctx.set(name, value);
  });
  const text = await response.text();
  ctx.body = text.length > 0 ? text : null;
  ctx.status = response.status;
}

export function mcpEndpoint(declaration: McpServerDeclaration, deps: McpEndpointDeps, catalog = mcpCatalog(declaration)): Middleware {
  return async (ctx) => {
    ctx.state.route = declaration.path;
    if (!admitOrigin(ctx, deps.origins)) return;
    const apiUrl = deps.apiUrlFor(ctx);
    if (!(await admitCaller(ctx, declaration, deps, apiUrl))) return;
    let body: unknown;
    try {
      body = await readJsonBody(ctx, BODY_LIMIT);
    } catch (error) {
      if (error instanceof BodyError) return rpcError(ctx, error.status, BODY_ERRORS[error.status], error.message);
      throw error;
    }
    const server = createMcpServer(declaration, catalog, {
      apiUrl,
      answer: async (contract, args) => {
        try {
          return await deps.runner.answer(ctx, contract, args);
        } catch (error) {
          if (!FacadeError.isExpected(error)) ctx.state.logger?.error({ err: error }, 'unexpected MCP call error');
          throw FacadeError.from(error);
        }
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      await sendResponse(ctx, await transport.handleRequest(transportRequest(ctx), { parsedBody: body }));
    } finally {
      await server.close();
    }
  };
}
