import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLSchema } from 'graphql';
import { checkContracts, CONTRACTS } from '../contracts/registry.js';
import { SUBGRAPH_NAMES } from '../runtime/config.js';
import { SUBGRAPHS } from '../subgraphs/index.js';
import { buildSubgraph } from '../subgraphs/shared/subgraph.js';
import { errorCatalogueDocument } from './error-catalogue.js';
import { checkOperations, INTERNAL_OPERATIONS_FILE, internalOperationsFile, operationsFile } from './named-operations.js';
import { namingProblems } from './naming.js';

const SCHEMA_DIR = import.meta.dirname;
export const OPERATIONS_DIR = join(SCHEMA_DIR, 'operations');

export interface Composed {
  readonly files: ReadonlyArray<readonly [string, string]>;
  /** The supergraph's API schema, what clients and the facade's operations are checked against. */
  readonly apiSchema: GraphQLSchema;
  /** Each subgraph's own schema, internal fields included: what the edge's internal operations are checked against. */
  readonly subgraphSchemas: Readonly<Record<string, GraphQLSchema>>;
}

/**
 * Prints each subgraph's SDL, composes the supergraph, and generates the named
 * operations of the REST routes and the error catalogue from the contracts.
 */
export async function composeSupergraph(): Promise<Composed> {
  checkContracts();
  const files: Array<readonly [string, string]> = [];
  const sdl: Record<string, string> = {};
  const subgraphSchemas: Record<string, GraphQLSchema> = {};
  for (const name of SUBGRAPH_NAMES) {
    const schema = await buildSubgraph(SUBGRAPHS[name]);
    subgraphSchemas[name] = schema;
    sdl[name] = `${printSubgraphSchema(schema).trim()}\n`;
    files.push([join(SCHEMA_DIR, 'subgraphs', `${name}.graphql`), sdl[name]]);
    files.push([join(OPERATIONS_DIR, name, 'operations.graphql'), operationsFile(name, schema, CONTRACTS[name])]);
    files.push([join(OPERATIONS_DIR, name, INTERNAL_OPERATIONS_FILE), internalOperationsFile(name)]);
  }
  const result = composeServices(
    SUBGRAPH_NAMES.map((name) => ({ name, url: `http://${name}.subgraph.invalid/graphql`, typeDefs: parse(sdl[name]!) })),
  );
  if (result.errors) throw new Error(`composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  files.push([join(SCHEMA_DIR, 'supergraph.graphql'), `${result.supergraphSdl.trim()}\n`]);
  files.push([join(SCHEMA_DIR, '..', 'docs', 'errors.md'), errorCatalogueDocument()]);
  return { files, apiSchema: result.schema.toAPISchema().toGraphQLJSSchema(), subgraphSchemas };
}

function stale(files: Composed['files']): string[] {
  return files
    .filter(([path, content]) => {
      try {
        return readFileSync(path, 'utf8') !== content;
      } catch {
        return true;
      }
    })
    .map(([path]) => path);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const composed = await composeSupergraph();
  if (process.argv.includes('--write')) {
    for (const [path, content] of composed.files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    process.stdout.write('schema: subgraph SDLs, supergraph and named operations written\n');
  } else {
    const outdated = stale(composed.files);
    const invalid = checkOperations(OPERATIONS_DIR, composed.apiSchema, composed.subgraphSchemas);
    if (outdated.length > 0)
      process.stderr.write(`schema: stale files (run npm run schema:print):\n${outdated.map((path) => `  ${path}`).join('\n')}\n`);
    if (invalid.length > 0)
      process.stderr.write(
        `schema: operations that do not validate against the supergraph:\n${invalid.map((line) => `  ${line}`).join('\n')}\n`,
      );
    const misnamed = namingProblems(parse(composed.files.find(([path]) => path.endsWith('supergraph.graphql'))![1]));
    if (misnamed.length > 0)
      process.stderr.write(`schema: names that break the naming rule (ADR 0040):\n${misnamed.map((line) => `  ${line}`).join('\n')}\n`);
    if (outdated.length > 0 || invalid.length > 0 || misnamed.length > 0) process.exit(1);
    process.stdout.write('schema: up to date; every named operation validates against the supergraph; every name follows the rule\n');
  }
}
