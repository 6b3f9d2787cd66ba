import type { OperationContract } from '../contracts/operation.js';
import { isResource } from './mcp-tools.js';

/**
 * MCP resources derived from the contracts that opt in (`mcp: { resource, uri }`): a
 * fixed resource, or a template (RFC 6570 level 1) whose `{field}`s are the operation's
 * path fields. Addresses are absolute under `{api_url}`; reading one runs the operation
 * as its REST route does and returns the route's body.
 */

export interface McpResourceDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The address under `{api_url}`, e.g. `/chat/threads/{threadId}`. */
  readonly uri: string;
  /** The fields the address carries; none for a fixed resource. */
  readonly fields: readonly string[];
  readonly args: Readonly<Record<string, unknown>>;
  readonly contract: OperationContract;
}

const FIELD = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

export function mcpResources(contracts: readonly OperationContract[]): McpResourceDefinition[] {
  return contracts.flatMap((contract) => {
    const binding = contract.mcp;
    if (!isResource(binding)) return [];
    const fields = [...binding.uri.matchAll(FIELD)].map((match) => match[1]!);
    const declared = Object.keys(contract.input.path ?? {});
    if (fields.slice().sort().join() !== declared.slice().sort().join()) {
      throw new Error(`operation ${contract.name}: MCP resource ${binding.uri} names [${fields}] but the path fields are [${declared}]`);
    }
    return [
      {
        name: binding.resource,
        title: contract.summary,
        description: binding.description ?? contract.description ?? contract.summary,
        uri: binding.uri,
        fields,
        args: binding.args ?? {},
        contract,
      },
    ];
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The resource an absolute address names under `apiUrl`, and the fields it carries; undefined when none does. */
export function matchResource(
  resources: readonly McpResourceDefinition[],
  apiUrl: string,
  address: string,
): { resource: McpResourceDefinition; values: Record<string, string> } | undefined {
  if (!address.startsWith(`${apiUrl}/`)) return undefined;
  const path = address.slice(apiUrl.length);
  for (const resource of resources) {
    const pattern = resource.uri
      .split(FIELD)
      .map((part, index) => (index % 2 === 1 ? '([^/?#]+)' : escapeRegExp(part)))
      .join('');
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (!match) continue;
    try {
      const values = Object.fromEntries(resource.fields.map((field, index) => [field, decodeURIComponent(match[index + 1]!)]));
      return { resource, values };
    } catch {
      return undefined;
    }
  }
  return undefined;
}
