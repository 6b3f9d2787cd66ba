import { serviceMap, type SubgraphModule } from '../shared/subgraph.js';
import { ResearchHealthResolver } from './health/research-health.resolver.js';
import { ResearchHealthService } from './health/research-health.service.js';
import { researchMigrations } from './migrations/index.js';

export const researchModule: SubgraphModule = {
  name: 'research',
  database: { schema: 'research', entities: [], migrations: researchMigrations },
  resolvers: [ResearchHealthResolver],
  createServices(runtime) {
    return serviceMap(new ResearchHealthService(runtime));
  },
};
