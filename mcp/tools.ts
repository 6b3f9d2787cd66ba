import { z } from 'zod';
import type { OperationContract } from '../contracts/operation.js';

/**
 * MCP tool definitions derived from the contracts that opt in (`mcp` in the contract):
 * the tool's name and description, and its input schema — the operation's arguments as
 * JSON Schema, named as GraphQL names them. A tool runs the operation's named GraphQL
 * operation, so it is validated, admitted and metered like every other call.
 */

export interface McpToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly contract: OperationContract;
}

export function mcpTools(contracts: readonly OperationContract[]): McpToolDefinition[] {
  return contracts
    .filter((contract) => contract.mcp)
    .map((contract) => {
      const schema = z.toJSONSchema(contract.args, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      const { $schema: _schema, ...inputSchema } = schema;
      return {
        name: contract.mcp!.tool,
        description: contract.mcp!.description ?? `${contract.summary}. ${contract.description ?? ''}`.trim(),
        inputSchema,
        contract,
      };
    });
}
