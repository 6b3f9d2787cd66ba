import { checkServiceHealth, type ServiceHealth } from '../../shared/health.js';
import type { SubgraphRuntime } from '../../shared/subgraph.js';
import type { SearchEngine } from '../search/search-engine.js';

export class LibraryHealthService {
  constructor(
    private readonly runtime: SubgraphRuntime,
    private readonly search: SearchEngine,
  ) {}

  check(): Promise<ServiceHealth> {
    return checkServiceHealth('library', this.runtime.orm, this.runtime.database, { search: () => this.search.health() });
  }
}
