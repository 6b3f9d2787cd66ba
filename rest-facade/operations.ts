import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

const OPERATIONS_DIR = join(import.meta.dirname, '..', 'schema', 'operations');

/** Names of the fragments a definition spreads, directly. */
function spreadsOf(definition: DefinitionNode): string[] {
  const names: string[] = [];
  visit(definition, { FragmentSpread: (node) => void names.push(node.name.value) });
  return names;
}

/** The fragments an operation needs, following spreads through fragments. */
function fragmentsFor(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): FragmentDefinitionNode[] {
  const needed = new Map<string, FragmentDefinitionNode>();
  const pending = spreadsOf(operation);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (needed.has(name)) continue;
    const fragment = fragments.get(name);
    if (!fragment) throw new Error(`operation ${operation.name?.value}: unknown fragment ${name}`);
    needed.set(name, fragment);
    pending.push(...spreadsOf(fragment));
  }
  return [...needed.values()];
}

/**
 * The named operations REST routes and MCP tools run, read once from
 * `schema/operations/<service>/*.graphql`. Operation and fragment names are unique
 * across services; fragments may be used from any file, and each operation's
 * document carries exactly the fragments it spreads.
 */
export function loadOperations(dir: string = OPERATIONS_DIR): ReadonlyMap<string, string> {
  const operations = new Map<string, OperationDefinitionNode>();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const service of readdirSync(dir, { withFileTypes: true })) {
    if (!service.isDirectory()) continue;
    for (const file of readdirSync(join(dir, service.name))) {
      if (!file.endsWith('.graphql')) continue;
      for (const definition of parse(readFileSync(join(dir, service.name, file), 'utf8')).definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) {
          if (fragments.has(definition.name.value)) throw new Error(`fragment ${definition.name.value} is defined twice`);
          fragments.set(definition.name.value, definition);
        } else if (definition.kind === Kind.OPERATION_DEFINITION) {
          const name = definition.name?.value;
          if (!name) throw new Error(`${service.name}/${file}: every operation needs a name`);
          if (operations.has(name)) throw new Error(`operation ${name} is defined twice`);
          operations.set(name, definition);
        }
      }
    }
  }
  return new Map(
    [...operations].map(([name, operation]) => [
      name,
      print({ kind: Kind.DOCUMENT, definitions: [operation, ...fragmentsFor(operation, fragments)] }),
    ]),
  );
}
