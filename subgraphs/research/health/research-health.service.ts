import { checkServiceHealth, type ServiceHealth } from '../../shared/health.js';
import type { SubgraphRuntime } from '../../shared/subgraph.js';

export class ResearchHealthService {
  constructor(private readonly runtime: SubgraphRuntime) {}

  check(): Promise<ServiceHealth> {
    return checkServiceHealth('research', this.runtime.orm, this.runtime.database);
  }
}
