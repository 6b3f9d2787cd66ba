import { z } from 'zod';
import type { McpResource, McpTool, OperationContract } from '../contracts/operation.js';

/**
 * MCP tool definitions derived from the contracts that opt in (`mcp: { tool }`): the
 * tool's name and description, and its input schema — the operation's inputs as JSON
 * Schema, named as GraphQL names them. A tool runs the operation's named GraphQL
 * operation, so it is validated, admitted and metered like every other call.
 */

export interface McpToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Hints for clients: a query changes nothing. */
  readonly annotations: { readonly readOnlyHint: boolean; readonly openWorldHint: false };
  readonly contract: OperationContract;
}

export const isTool = (binding: OperationContract['mcp']): binding is McpTool => binding !== undefined && 'tool' in binding;
export const isResource = (binding: OperationContract['mcp']): binding is McpResource => binding !== undefined && 'resource' in binding;

export function mcpTools(contracts: readonly OperationContract[]): McpToolDefinition[] {
  return contracts.flatMap((contract) => {
    const binding = contract.mcp;
    if (!isTool(binding)) return [];
    // The named operation's inputs, as a REST route has them (switches of its selection included).
    const schema = z.toJSONSchema(contract.wireArgs, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const { $schema: _schema, ...inputSchema } = schema;
    return [
      {
        name: binding.tool,
        title: contract.summary,
        description: binding.description ?? `${contract.summary}. ${contract.description ?? ''}`.trim(),
        // Arguments the schema does not name are refused (contracts/input.ts).
        inputSchema: { ...inputSchema, additionalProperties: false },
        annotations: { readOnlyHint: contract.kind === 'query', openWorldHint: false },
        contract,
      },
    ];
  });
}
