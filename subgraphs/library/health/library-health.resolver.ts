import { Query, Resolver } from 'type-graphql';
import { ServiceHealth } from '../../shared/health.js';
import { LibraryHealthService } from './library-health.service.js';

@Resolver()
export class LibraryHealthResolver {
  static readonly inject = [LibraryHealthService];

  constructor(private readonly health: LibraryHealthService) {}

  @Query(() => ServiceHealth, { description: 'Library health: database, migrations and search engine.' })
  libraryHealth(): Promise<ServiceHealth> {
    return this.health.check();
  }
}
