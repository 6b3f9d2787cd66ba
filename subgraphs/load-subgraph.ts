import type { SubgraphName } from '../runtime/config.js';
import type { SubgraphModule } from './shared/subgraph.js';

/**
 * One subgraph's module, imported when a process starts it: a process loads the code of the
 * subgraphs its role runs and no other (a `ROLE=subgraph:library` server never loads the
 * operations service), which keeps the start of role processes short.
 */
export async function loadSubgraph(name: SubgraphName): Promise<SubgraphModule> {
  switch (name) {
    case 'library':
      return (await import('./library/library.module.js')).libraryModule;
    case 'research':
      return (await import('./research/research.module.js')).researchModule;
    case 'operations':
      return (await import('./operations/operations.module.js')).operationsModule;
  }
}
