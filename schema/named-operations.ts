import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getNamedType, isObjectType, parse, print, validate, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { z } from 'zod';
import {
  callerCheckFieldOf,
  callerCheckOperationOf,
  operationNameOf,
  refusalFieldOf,
  refusalOperationOf,
  type OperationContract,
  type ServiceName,
} from '../contracts/operation.js';
import { graphqlName } from '../contracts/graphql-names.js';
import { fieldArgs, kindOf, unwrap } from '../contracts/schema-shape.js';

/**
 * The named GraphQL operations REST routes (and MCP tools) run, generated from the
 * contracts into `schema/operations/<service>/operations.graphql` and committed, so a
 * reviewer sees exactly what each route asks for. `schema:check` regenerates them and
 * validates every committed operation against the supergraph.
 */

/** Every field of an output schema but those taking arguments, objects expanded, to a bounded depth. */
export function defaultSelection(schema: z.ZodType, depth = 0): string {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'list') return defaultSelection(kind.item, depth);
  if (kind.kind !== 'object') return '';
  if (depth > 6) throw new Error('output schema nests deeper than 6 objects; give the REST binding a selection');
  const fields = Object.entries(kind.shape)
    .filter(([, field]) => !fieldArgs(field))
    .map(([name, field]) => {
      const inner = defaultSelection(field, depth + 1);
      return inner ? `${graphqlName(name)} { ${inner} }` : graphqlName(name);
    });
  return fields.join(' ');
}

/** The REST selection of a contract; all bindings must agree on it. */
function selectionOf(contract: OperationContract): string {
  const given = [...new Set(contract.rest.map((binding) => binding.selection).filter((selection) => selection !== undefined))];
  if (given.length > 1) throw new Error(`operation ${contract.name}: its REST bindings ask for different selections`);
  return given[0] ?? defaultSelection(contract.output);
}

function rootField(schema: GraphQLSchema, contract: OperationContract): GraphQLField<unknown, unknown> {
  const root = (contract.kind === 'mutation' ? schema.getMutationType() : schema.getQueryType()) as GraphQLObjectType | null;
  const field = root?.getFields()[contract.name];
  if (!field) throw new Error(`operation ${contract.name}: no ${contract.kind} field ${contract.name} in the schema`);
  return field;
}

/** One named operation: variables typed as the field's arguments (and REST-only switches as `Boolean!`). */
export function namedOperation(schema: GraphQLSchema, contract: OperationContract): string {
  const field = rootField(schema, contract);
  const selection = selectionOf(contract);
  // Deprecated aliases are for older callers; the edge asks by the current names.
  const current = field.args.filter((arg) => !arg.deprecationReason);
  const variables = current.map((arg) => `$${arg.name}: ${String(arg.type)}`);
  const restOnly = Object.keys(contract.wireArgs.shape).filter((key) => !(key in contract.args.shape));
  for (const name of restOnly.map(graphqlName)) if (selection.includes(`$${name}`)) variables.push(`$${name}: Boolean!`);
  const args = current.map((arg) => `${arg.name}: $${arg.name}`);
  const hasSelection = isObjectType(getNamedType(field.type));
  const text = `${contract.kind} ${operationNameOf(contract.name)}${variables.length ? `(${variables.join(', ')})` : ''} {
    ${contract.name}${args.length ? `(${args.join(', ')})` : ''}${hasSelection ? ` { ${selection} }` : ''}
  }`;
  return print(parse(text));
}

/** The contracts REST and MCP run through GraphQL: queries and mutations with a REST binding or an MCP tool or resource. */
export const routedContracts = (contracts: readonly OperationContract[]) =>
  contracts.filter(
    (contract) => (contract.kind === 'query' || contract.kind === 'mutation') && (contract.rest.length > 0 || contract.mcp !== undefined),
  );

/** How the REST edge has the service refuse input it found invalid. */
const refusalOperation = (service: ServiceName) =>
  print(
    parse(
      `query ${refusalOperationOf(service)}($operation: String!, $issues: JSON!, $issueCount: Int) { ${refusalFieldOf(service)}(operation: $operation, issues: $issues, issueCount: $issueCount) }`,
    ),
  );

/** How an MCP endpoint authenticates its caller before reading any message. */
const callerCheckOperation = (service: ServiceName) =>
  print(parse(`query ${callerCheckOperationOf(service)}($operation: String!) { ${callerCheckFieldOf(service)}(operation: $operation) }`));

const HEADER = '# Generated from the operation contracts by `npm run schema:print`; do not edit.\n';

/** The file of the operations the edge runs through the gateway (`operations.graphql`). */
export function operationsFile(_service: ServiceName, schema: GraphQLSchema, contracts: readonly OperationContract[]): string {
  const operations = routedContracts(contracts).map((contract) => namedOperation(schema, contract));
  return `${HEADER}\n${operations.join('\n\n')}\n`;
}

/**
 * The operations the edge runs on the owning subgraph itself (`internal.graphql`): the
 * refusal and caller check, whose fields are `@inaccessible` in the public graph.
 */
export const INTERNAL_OPERATIONS_FILE = 'internal.graphql';

export function internalOperationsFile(service: ServiceName): string {
  return `${HEADER}\n${[refusalOperation(service), callerCheckOperation(service)].join('\n\n')}\n`;
}

/**
 * Problems of the committed operation files, one line each: `internal.graphql` against its
 * service's subgraph schema, every other file against the supergraph's API schema.
 */
export function checkOperations(
  dir: string,
  apiSchema: GraphQLSchema,
  subgraphSchemas: Readonly<Record<string, GraphQLSchema>> = {},
): string[] {
  const problems: string[] = [];
  for (const service of readdirSync(dir, { withFileTypes: true })) {
    if (!service.isDirectory()) continue;
    for (const file of readdirSync(join(dir, service.name)).filter((name) => name.endsWith('.graphql'))) {
      const where = `${service.name}/${file}`;
      const schema = file === INTERNAL_OPERATIONS_FILE ? subgraphSchemas[service.name] : apiSchema;
      if (!schema) {
        problems.push(`${where}: no subgraph schema ${service.name} to check it against`);
        continue;
      }
      try {
        for (const error of validate(schema, parse(readFileSync(join(dir, service.name, file), 'utf8')))) {
          problems.push(`${where}: ${error.message}`);
        }
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}
