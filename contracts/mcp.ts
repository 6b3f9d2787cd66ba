import type { OperationContract, ServiceName } from './operation.js';

/**
 * One MCP endpoint of a service (streamable HTTP on the API host): what the server says
 * about itself, and the operation whose access admits a caller before any message is
 * read. Its tools and resources are the service's contracts that declare `mcp`; the
 * discovery documents (server card, API catalog, protected resource metadata) are
 * derived from the same declaration (docs/adr/0018-mcp-and-discovery.md).
 */
export interface McpServerDeclaration {
  readonly service: ServiceName;
  /** Path of the endpoint under `{api_url}`, e.g. `/mcp`. */
  readonly path: string;
  /** Namespaced name, `namespace/server` (server card). */
  readonly name: string;
  readonly title: string;
  /** One line, at most 100 characters (server card). */
  readonly description: string;
  /** What a client is told at `initialize`: how the tools and resources fit together. */
  readonly instructions: string;
  /** An operation whose access every caller must pass (authentication only: nothing is counted or run). */
  readonly admission: OperationContract;
  /** How a key is described to whoever configures a client (server card). */
  readonly credential: string;
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Declares an MCP endpoint; a malformed declaration fails at start-up. */
export function defineMcpServer(declaration: McpServerDeclaration): McpServerDeclaration {
  if (!/^(\/[a-z0-9-]+)+$/.test(declaration.path)) throw new Error(`MCP endpoint ${declaration.path}: not a plain path`);
  if (!NAME.test(declaration.name)) throw new Error(`MCP endpoint ${declaration.path}: name must be namespace/server`);
  if (declaration.description.length > 100) throw new Error(`MCP endpoint ${declaration.path}: description longer than 100 characters`);
  if (declaration.admission.service !== declaration.service)
    throw new Error(`MCP endpoint ${declaration.path}: admission of another service`);
  return declaration;
}

/** Where an endpoint's protected resource metadata (RFC 9728) is: the well-known prefix inserted before its path. */
export const protectedResourceMetadataPath = (resourcePath: string) => `/.well-known/oauth-protected-resource${resourcePath}`;
