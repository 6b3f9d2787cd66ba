import { RESEARCH_SCOPES } from '../../access.js';
import { WORKSPACE_SCOPE } from '../../identity.js';
import type { McpServerDeclaration } from '../../mcp.js';
import type { WireRequest } from '../../operation.js';
import { RESEARCH_MCP } from '../mcp.js';

/**
 * Protected resource metadata (RFC 9728). The workspace API takes access tokens of the
 * identity provider, so it names it as its authorization server; the MCP endpoints take
 * the services' API keys, which no authorization server issues, so they name none —
 * their metadata tells a client how to send the key and where the key comes from.
 */

export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly resource_name: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly resource_documentation?: string;
}

/**
 * The workspace API: the resource its access tokens are for and the issuers it trusts, exactly
 * as the provider and the API's guard have them (`request.workspaceResource`, one decision).
 */
export function workspaceResourceMetadata(request: WireRequest): ProtectedResourceMetadata {
  return {
    resource: request.workspaceResource.resource,
    resource_name: 'Qantara research workspace API',
    authorization_servers: request.workspaceResource.authorizationServers,
    scopes_supported: [WORKSPACE_SCOPE],
    bearer_methods_supported: ['header'],
    resource_documentation: `${request.siteUrl}/.well-known/openapi.json`,
  };
}

export function mcpResourceMetadata(server: McpServerDeclaration, documentation: string, request: WireRequest): ProtectedResourceMetadata {
  return {
    resource: `${request.apiUrl}${server.path}`,
    resource_name: `${server.title} MCP`,
    // Research keys carry scopes; library keys carry a plan instead.
    ...(server === RESEARCH_MCP ? { scopes_supported: RESEARCH_SCOPES } : {}),
    bearer_methods_supported: ['header'],
    resource_documentation: documentation,
  };
}
