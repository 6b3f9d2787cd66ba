import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { SUBGRAPH_NAMES } from '../runtime/config.js';
import { SUBGRAPHS } from '../subgraphs/index.js';
import { buildSubgraph } from '../subgraphs/shared/subgraph.js';

const SCHEMA_DIR = import.meta.dirname;

/** Prints each subgraph's SDL from type-graphql and composes the supergraph. */
export async function composeSupergraph(): Promise<{ subgraphs: Record<string, string>; supergraph: string }> {
  const subgraphs: Record<string, string> = {};
  for (const name of SUBGRAPH_NAMES) {
    subgraphs[name] = `${printSubgraphSchema(await buildSubgraph(SUBGRAPHS[name])).trim()}\n`;
  }
  const result = composeServices(
    SUBGRAPH_NAMES.map((name) => ({ name, url: `http://${name}.subgraph.invalid/graphql`, typeDefs: parse(subgraphs[name]!) })),
  );
  if (result.errors) throw new Error(`composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  return { subgraphs, supergraph: `${result.supergraphSdl.trim()}\n` };
}

const files = (composed: { subgraphs: Record<string, string>; supergraph: string }): Array<[string, string]> => [
  ...Object.entries(composed.subgraphs).map(([name, sdl]): [string, string] => [join(SCHEMA_DIR, 'subgraphs', `${name}.graphql`), sdl]),
  [join(SCHEMA_DIR, 'supergraph.graphql'), composed.supergraph],
];

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const composed = await composeSupergraph();
  if (process.argv.includes('--write')) {
    for (const [path, content] of files(composed)) writeFileSync(path, content);
    process.stdout.write('schema: subgraph SDLs and supergraph written\n');
  } else {
    const stale = files(composed).filter(([path, content]) => {
      try {
        return readFileSync(path, 'utf8') !== content;
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      process.stderr.write(`schema: stale files (run npm run schema:print):\n${stale.map(([path]) => `  ${path}`).join('\n')}\n`);
      process.exit(1);
    }
    process.stdout.write('schema: up to date\n');
  }
}
