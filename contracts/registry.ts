import { LIBRARY_CONTRACTS } from './library/index.js';
import { LIBRARY_MCP } from './library/mcp.js';
import type { McpServerDeclaration } from './mcp.js';
import type { OperationContract, ServiceName } from './operation.js';
import { OPERATIONS_CONTRACTS, OPERATIONS_SUBSCRIPTIONS } from './operations/index.js';
import { RESEARCH_CONTRACTS, RESEARCH_SUBSCRIPTIONS } from './research/index.js';
import { RESEARCH_MCP } from './research/mcp.js';
import type { SubscriptionContract } from './subscription.js';

/** Every operation of every service, by service. */
export const CONTRACTS: Readonly<Record<ServiceName, readonly OperationContract[]>> = {
  library: LIBRARY_CONTRACTS,
  research: RESEARCH_CONTRACTS,
  operations: OPERATIONS_CONTRACTS,
};

export const ALL_CONTRACTS: readonly OperationContract[] = Object.values(CONTRACTS).flat();

/** The MCP endpoints (streamable HTTP), each serving the tools and resources its service's contracts declare. */
export const MCP_SERVERS: readonly McpServerDeclaration[] = [RESEARCH_MCP, LIBRARY_MCP];

/** Every GraphQL subscription the gateway serves over graphql-ws. */
export const SUBSCRIPTIONS: readonly SubscriptionContract[] = [...RESEARCH_SUBSCRIPTIONS, ...OPERATIONS_SUBSCRIPTIONS];

/**
 * Checks the whole set once at start-up: names unique across services, no REST method
 * and path claimed twice, every operation with a declared access and owned by the
 * service it is listed under.
 */
export function checkContracts(contracts: Readonly<Record<ServiceName, readonly OperationContract[]>> = CONTRACTS): void {
  const names = new Set<string>();
  const routes = new Set<string>();
  for (const [service, list] of Object.entries(contracts)) {
    for (const contract of list) {
      if (contract.service !== service)
        throw new Error(`operation ${contract.name} belongs to ${contract.service}, listed under ${service}`);
      if (!contract.access) throw new Error(`operation ${contract.name} declares no access`);
      if (names.has(contract.name)) throw new Error(`operation ${contract.name} is declared twice`);
      names.add(contract.name);
      for (const binding of contract.rest) {
        const route = `${binding.method} ${binding.path.replace(/:[A-Za-z_]+/g, ':')}`;
        if (routes.has(route)) throw new Error(`${binding.method} ${binding.path} is served by two operations`);
        routes.add(route);
      }
    }
  }
}

/** Which service serves each streaming operation (a `stream` operation, or a REST binding's stream). */
export function streamOwners(contracts: Readonly<Record<ServiceName, readonly OperationContract[]>> = CONTRACTS) {
  const owners: Record<string, ServiceName> = {};
  for (const [service, list] of Object.entries(contracts) as Array<[ServiceName, readonly OperationContract[]]>) {
    for (const contract of list) {
      const names =
        contract.kind === 'stream'
          ? [contract.name]
          : contract.rest.flatMap((binding) => (binding.stream ? [binding.stream.operation] : []));
      for (const name of names) owners[name] = service;
    }
  }
  return owners;
}
