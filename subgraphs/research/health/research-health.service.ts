import { checkServiceHealth, type ServiceHealth } from '../../shared/health.js';
import type { SubgraphOrm } from '../../shared/orm.js';

export class ResearchHealthService {
  constructor(private readonly orm: SubgraphOrm) {}

  check(): Promise<ServiceHealth> {
    return checkServiceHealth('research', this.orm);
  }
}
