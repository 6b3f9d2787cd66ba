import { libraryHealth } from '../../../contracts/library/service.contract.js';
import type { ServiceHealthData } from '../../../contracts/shared/health.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import { checkServiceHealth } from '../../shared/health.js';
import type { Services, SubgraphRuntime } from '../../shared/subgraph.js';
import { AddressLimit } from '../accounts/address-limit.js';
import type { SearchEngine } from '../search/search-engine.js';

export class LibraryHealthService {
  constructor(
    private readonly runtime: SubgraphRuntime,
    private readonly search: SearchEngine,
  ) {}

  check(): Promise<ServiceHealthData> {
    return checkServiceHealth('library', this.runtime.orm, this.runtime.database, { search: () => this.search.health() });
  }
}

export const healthOperations = (services: Services): Implementation[] => [
  implement(libraryHealth, async (_input, { ctx }) => {
    await services.get(AddressLimit).admitProbe(ctx);
    return services.get(LibraryHealthService).check();
  }),
];
