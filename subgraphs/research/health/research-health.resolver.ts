import { Query, Resolver } from 'type-graphql';
import { ServiceHealth } from '../../shared/health.js';
import { ResearchHealthService } from './research-health.service.js';

@Resolver()
export class ResearchHealthResolver {
  static readonly inject = [ResearchHealthService];

  constructor(private readonly health: ResearchHealthService) {}

  @Query(() => ServiceHealth, { description: 'Research health: database and migrations.' })
  researchHealth(): Promise<ServiceHealth> {
    return this.health.check();
  }
}
