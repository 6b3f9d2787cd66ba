import 'reflect-metadata';
import type { SubgraphName } from '../runtime/config.js';
import { libraryModule } from './library/library.module.js';
import { operationsModule } from './operations/operations.module.js';
import { researchModule } from './research/research.module.js';
import type { SubgraphModule } from './shared/subgraph.js';

/** The three subgraphs, in composition order. */
export const SUBGRAPHS: Readonly<Record<SubgraphName, SubgraphModule>> = {
  library: libraryModule,
  research: researchModule,
  operations: operationsModule,
};
