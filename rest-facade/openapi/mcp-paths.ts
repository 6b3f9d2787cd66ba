import { describeAccess, publicAccess } from '../../contracts/access.js';
import { familyOf } from '../../contracts/families.js';
import type { McpServerDeclaration } from '../../contracts/mcp.js';
import type { OperationContract } from '../../contracts/operation.js';
import { mcpResources } from '../../edge/mcp-resources.js';
import { mcpTools } from '../../edge/mcp-tools.js';
import { errorBody } from './error-bodies.js';
import { withAccess } from './security.js';
import type { SchemaCollector } from './json-schema.js';

/**
 * An MCP endpoint as OpenAPI describes it: one `POST` taking JSON-RPC messages, its
 * tools and resources named in the description and listed in `x-mcp` (with their input
 * schemas), and the 405 its `GET` and `DELETE` answer. The messages themselves are the
 * MCP specification's, not repeated here.
 */

const rpc = (description: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message (or an array of them).' } } },
});

export function mcpPath(
  server: McpServerDeclaration,
  contracts: readonly OperationContract[],
  security: Array<Record<string, string[]>>,
  schemas: SchemaCollector,
): Record<string, unknown> {
  const tools = mcpTools(contracts.filter((contract) => contract.service === server.service));
  const resources = mcpResources(contracts.filter((contract) => contract.service === server.service));
  const error = (status: number) => ({
    description: `HTTP ${status}.`,
    content: { 'application/json': { schema: schemas.schema(errorBody(familyOf(server.path), status).schema, 'output') } },
  });
  const listing = [
    ...tools.map((tool) => `- tool \`${tool.name}\`: ${tool.description}`),
    ...resources.map((resource) => `- resource \`{api_url}${resource.uri}\`: ${resource.description}`),
  ].join('\n');
  const notAllowed = {
    summary: 'Not offered: the endpoint is stateless (no server stream, no session)',
    description: withAccess(undefined, publicAccess()),
    tags: ['mcp'],
    'x-access': describeAccess(publicAccess()),
    responses: { '405': rpc('Method not allowed; `Allow: POST`.') },
  };
  return {
    post: {
      operationId: `${server.service}Mcp`,
      summary: `${server.title} MCP endpoint (streamable HTTP)`,
      description: withAccess(
        `${server.instructions}\n\n${listing}\n\nStateless: every POST is answered on its own with a JSON body. A key that is missing or refused answers 401 with \`WWW-Authenticate: Bearer resource_metadata="{api_url}/.well-known/oauth-protected-resource${server.path}"\`; a browser \`Origin\` outside the allow-list answers 403. Each tool call and resource read is the operation its REST route runs: same key, scopes, quota and errors (as tool errors \`{code, message}\`).`,
        server.admission.access,
      ),
      tags: ['mcp'],
      security,
      'x-access': describeAccess(server.admission.access),
      'x-mcp': {
        tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        resources: resources.map(({ name, uri, description }) => ({ name, uri: `{api_url}${uri}`, description })),
      },
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': rpc('The JSON-RPC responses.'),
        '202': { description: 'Only notifications or responses were sent; nothing to answer.' },
        '401': error(401),
        '403': rpc('The request’s `Origin` is not allowed.'),
      },
    },
    get: notAllowed,
    delete: notAllowed,
  };
}
