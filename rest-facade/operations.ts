import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';

const OPERATIONS_DIR = join(import.meta.dirname, '..', 'schema', 'operations');

/**
 * The named operations REST routes and MCP tools run, read once from
 * `schema/operations/<service>/*.graphql`; names are unique across services.
 */
export function loadOperations(dir: string = OPERATIONS_DIR): ReadonlyMap<string, string> {
  const operations = new Map<string, string>();
  for (const service of readdirSync(dir, { withFileTypes: true })) {
    if (!service.isDirectory()) continue;
    for (const file of readdirSync(join(dir, service.name))) {
      if (!file.endsWith('.graphql')) continue;
      const document = parse(readFileSync(join(dir, service.name, file), 'utf8'));
      const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
        const name = (definition as OperationDefinitionNode).name?.value;
        if (!name) throw new Error(`${service.name}/${file}: every operation needs a name`);
        if (operations.has(name)) throw new Error(`operation ${name} is defined twice`);
        operations.set(name, print({ kind: Kind.DOCUMENT, definitions: [definition, ...fragments] }));
      }
    }
  }
  return operations;
}
