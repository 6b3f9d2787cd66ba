import { checkServiceHealth, type ServiceHealth } from '../../shared/health.js';
import type { SubgraphOrm } from '../../shared/orm.js';
import type { SearchEngine } from '../search/search-engine.js';

export class LibraryHealthService {
  constructor(
    private readonly orm: SubgraphOrm,
    private readonly search: SearchEngine,
  ) {}

  check(): Promise<ServiceHealth> {
    return checkServiceHealth('library', this.orm, { search: () => this.search.health() });
  }
}
