import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerDeclaration } from '../contracts/mcp.js';
import type { OperationContract } from '../contracts/operation.js';
import { VERSION } from '../contracts/version.js';
import { FacadeError } from '../edge/facade-error.js';
import { mcpErrorBody, RESOURCE_NOT_FOUND, resourceError } from './errors.js';
import { matchResource, type McpResourceDefinition } from '../edge/mcp-resources.js';
import type { McpToolDefinition } from '../edge/mcp-tools.js';

/**
 * The MCP server of one endpoint, built per HTTP request (the endpoint is stateless): it
 * lists the tools and resources derived from the contracts and answers each call by
 * running the contract's operation through `calls` — the same path as the REST route,
 * so the key, its scopes and quota, validation and errors are those of REST.
 */

/** How the endpoint runs a contract for this request: the body its REST route would answer (or its data); refusals as FacadeErrors. */
export interface McpCalls {
  readonly apiUrl: string;
  answer(contract: OperationContract, args: Record<string, unknown>): Promise<unknown>;
}

export interface McpCatalog {
  readonly tools: readonly McpToolDefinition[];
  readonly resources: readonly McpResourceDefinition[];
}

const JSON_TYPE = 'application/json';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function toolResult(body: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    ...(isObject(body) ? { structuredContent: body } : {}),
    ...(isError ? { isError } : {}),
  };
}

export function createMcpServer(declaration: McpServerDeclaration, catalog: McpCatalog, calls: McpCalls): Server {
  const server = new Server(
    { name: declaration.name, title: declaration.title, version: VERSION },
    {
      capabilities: {
        ...(catalog.tools.length > 0 ? { tools: { listChanged: false } } : {}),
        ...(catalog.resources.length > 0 ? { resources: { listChanged: false, subscribe: false } } : {}),
      },
      instructions: declaration.instructions,
    },
  );
  const tools = new Map(catalog.tools.map((tool) => [tool.name, tool]));
  const address = (resource: McpResourceDefinition) => `${calls.apiUrl}${resource.uri}`;
  const fixed = catalog.resources.filter((resource) => resource.fields.length === 0);
  const templates = catalog.resources.filter((resource) => resource.fields.length > 0);

  if (catalog.tools.length > 0) {
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: catalog.tools.map(({ name, title, description, inputSchema, annotations }) => ({
        name,
        title,
        description,
        inputSchema: inputSchema as { type: 'object' },
        annotations,
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = tools.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      try {
        return toolResult(await calls.answer(tool.contract, request.params.arguments ?? {}));
      } catch (error) {
        return toolResult(mcpErrorBody(declaration.service, FacadeError.from(error), calls.apiUrl), true);
      }
    });
  }

  if (catalog.resources.length > 0) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: fixed.map((resource) => ({
        uri: address(resource),
        name: resource.name,
        title: resource.title,
        description: resource.description,
        mimeType: JSON_TYPE,
      })),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: templates.map((resource) => ({
        uriTemplate: address(resource),
        name: resource.name,
        title: resource.title,
        description: resource.description,
        mimeType: JSON_TYPE,
      })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      const found = matchResource(catalog.resources, calls.apiUrl, uri);
      if (!found) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
      try {
        const body = await calls.answer(found.resource.contract, { ...found.resource.args, ...found.values });
        return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(body) }] };
      } catch (error) {
        throw resourceError(declaration.service, FacadeError.from(error), calls.apiUrl);
      }
    });
  }
  return server;
}
