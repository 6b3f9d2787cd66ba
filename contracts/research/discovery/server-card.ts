import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerDeclaration } from '../../mcp.js';
import type { WireRequest } from '../../operation.js';
import { VERSION } from '../../version.js';

/**
 * The MCP server card (SEP-2127, schema v2): who the server is and how to reach it —
 * the streamable HTTP address and the key header — for discovery before connecting.
 * Tools and resources are not listed: a client lists them at runtime.
 */

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';

export function serverCard(server: McpServerDeclaration, request: WireRequest) {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: server.name,
    title: server.title,
    description: server.description,
    version: VERSION,
    websiteUrl: request.siteUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: `${request.apiUrl}${server.path}`,
        headers: [
          {
            name: 'Authorization',
            description: server.credential,
            isRequired: true,
            isSecret: true,
            value: 'Bearer {api_key}',
            variables: { api_key: { description: server.credential, isRequired: true, isSecret: true } },
          },
        ],
        supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
  };
}
