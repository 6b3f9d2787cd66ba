import { checkServiceHealth, type ServiceHealth } from '../../shared/health.js';
import type { SubgraphOrm } from '../../shared/orm.js';

export class OperationsHealthService {
  constructor(private readonly orm: SubgraphOrm) {}

  check(): Promise<ServiceHealth> {
    return checkServiceHealth('operations', this.orm);
  }
}
