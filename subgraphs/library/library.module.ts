import { serviceMap, type SubgraphModule } from '../shared/subgraph.js';
import { LibraryHealthResolver } from './health/library-health.resolver.js';
import { LibraryHealthService } from './health/library-health.service.js';
import { libraryMigrations } from './migrations/index.js';
import { PostgresSearchEngine } from './search/postgres-engine.js';

export const libraryModule: SubgraphModule = {
  name: 'library',
  database: { schema: 'library', entities: [], migrations: libraryMigrations },
  resolvers: [LibraryHealthResolver],
  createServices({ orm }) {
    const search = new PostgresSearchEngine(orm);
    return serviceMap(new LibraryHealthService(orm, search));
  },
};
