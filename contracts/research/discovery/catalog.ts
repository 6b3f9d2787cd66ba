import { LIBRARY_MCP } from '../../library/mcp.js';
import { protectedResourceMetadataPath, type McpServerDeclaration } from '../../mcp.js';
import type { WireRequest } from '../../operation.js';
import { RESEARCH_MCP } from '../mcp.js';

/**
 * The API catalog (RFC 9727) as a linkset (RFC 9264): the catalog's own context lists
 * every API endpoint as an `item`; each API then has a context of its own with its
 * description (`service-desc`, OpenAPI), documentation (`service-doc`), metadata
 * (`service-meta`: MCP server card, protected resource metadata) and `status` (RFC 8631).
 */

export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const LINKSET_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

interface Target {
  readonly href: string;
  readonly type?: string;
  readonly title?: string;
}

type LinkContext = { readonly anchor: string } & Readonly<Record<string, string | readonly Target[]>>;

const OPENAPI = 'application/vnd.oai.openapi+json;version=3.1';
const JSON_TYPE = 'application/json';

function mcpContext(server: McpServerDeclaration, request: WireRequest, card?: string): LinkContext {
  return {
    anchor: `${request.apiUrl}${server.path}`,
    'service-meta': [
      ...(card ? [{ href: card, type: JSON_TYPE, title: `${server.title} MCP server card` }] : []),
      {
        href: `${request.apiUrl}${protectedResourceMetadataPath(server.path)}`,
        type: JSON_TYPE,
        title: `${server.title} MCP protected resource metadata (RFC 9728)`,
      },
    ],
  };
}

export function apiCatalog(request: WireRequest): { linkset: LinkContext[] } {
  const { apiUrl, siteUrl } = request;
  const apis: LinkContext[] = [
    {
      anchor: `${apiUrl}/v1`,
      'service-desc': [{ href: `${siteUrl}/.well-known/openapi.json`, type: OPENAPI, title: 'Qantara research API (OpenAPI 3.1)' }],
      status: [{ href: `${apiUrl}/health`, type: JSON_TYPE }],
    },
    mcpContext(RESEARCH_MCP, request, `${siteUrl}${SERVER_CARD_PATH}`),
    {
      anchor: request.workspaceResource.resource,
      'service-meta': [
        {
          href: request.workspaceResource.metadata,
          type: JSON_TYPE,
          title: 'Qantara research workspace API protected resource metadata (RFC 9728)',
        },
      ],
    },
    {
      anchor: `${apiUrl}/`,
      'service-desc': [{ href: `${apiUrl}/openapi.json`, type: OPENAPI, title: 'Qantara library API (OpenAPI 3.1)' }],
      'service-doc': [{ href: `${apiUrl}/docs`, type: 'text/html', title: 'Qantara library API documentation' }],
      status: [{ href: `${apiUrl}/healthz`, type: JSON_TYPE }],
    },
    mcpContext(LIBRARY_MCP, request),
    {
      anchor: `${apiUrl}/api/v1`,
      'service-desc': [{ href: `${apiUrl}/api/v1/openapi.json`, type: OPENAPI, title: 'Qantara operations API (OpenAPI 3.1)' }],
      'service-doc': [{ href: `${apiUrl}/api/v1/docs`, type: 'text/html', title: 'Qantara operations API documentation' }],
      status: [{ href: `${apiUrl}/api/v1/health/ready`, type: JSON_TYPE }],
    },
  ];
  const catalog: LinkContext = {
    anchor: `${siteUrl}${API_CATALOG_PATH}`,
    item: apis.map((api) => ({ href: api.anchor })),
  };
  return { linkset: [catalog, ...apis] };
}
