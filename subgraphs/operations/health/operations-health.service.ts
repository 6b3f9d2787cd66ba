import { checkServiceHealth, type ServiceHealth } from '../../shared/health.js';
import type { SubgraphRuntime } from '../../shared/subgraph.js';

export class OperationsHealthService {
  constructor(private readonly runtime: SubgraphRuntime) {}

  check(): Promise<ServiceHealth> {
    return checkServiceHealth('operations', this.runtime.orm, this.runtime.database);
  }
}
