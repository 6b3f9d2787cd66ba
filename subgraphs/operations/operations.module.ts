import { serviceMap, type SubgraphModule } from '../shared/subgraph.js';
import { OperationsHealthResolver } from './health/operations-health.resolver.js';
import { OperationsHealthService } from './health/operations-health.service.js';
import { operationsMigrations } from './migrations/index.js';

export const operationsModule: SubgraphModule = {
  name: 'operations',
  database: { schema: 'operations', entities: [], migrations: operationsMigrations },
  resolvers: [OperationsHealthResolver],
  createServices(runtime) {
    return serviceMap(new OperationsHealthService(runtime));
  },
};
