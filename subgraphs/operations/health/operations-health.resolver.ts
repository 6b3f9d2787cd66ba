import { Query, Resolver } from 'type-graphql';
import { ServiceHealth } from '../../shared/health.js';
import { OperationsHealthService } from './operations-health.service.js';

@Resolver()
export class OperationsHealthResolver {
  static readonly inject = [OperationsHealthService];

  constructor(private readonly health: OperationsHealthService) {}

  @Query(() => ServiceHealth, { description: 'Operations health: database and migrations.' })
  operationsHealth(): Promise<ServiceHealth> {
    return this.health.check();
  }
}
