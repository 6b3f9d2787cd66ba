import { LIBRARY_CONTRACTS } from '../../contracts/library/index.js';
import type { SubgraphModule } from '../shared/subgraph.js';
import { accountsEntities, createAccountsServices } from './accounts/accounts.module.js';
import { accountOperations } from './accounts/accounts.operations.js';
import { LibraryAccess } from './accounts/access.service.js';
import { AccountKeys } from './accounts/account-keys.js';
import { LibraryAccount } from '../../contracts/library/account-types.js';
import { AddressLimit, openRoutes } from './accounts/address-limit.js';
import { AdminTokenCheck } from '../shared/admin-token.js';
import { catalogFields, catalogOperations } from './catalog/catalog.operations.js';
import { createChatServices } from './chat/chat.module.js';
import { chatOperations } from './chat/chat.operations.js';
import { healthOperations, LibraryHealthService } from './health/library-health.service.js';
import { importOperations } from './import/import.operations.js';
import { LibraryImportService } from './import/library-import.service.js';
import { contentEntities, createContentServices, loadDemoOnFirstStart } from './library-content.js';
import { libraryMigrations } from './migrations/index.js';
import { libraryWrites } from './library-writes.js';
import { retrievalOperations } from './search/retrieval.operations.js';
import type { SearchEngine } from './search/search-engine.js';

/** The search engine the services were built with, so operations can name it. */
class EngineInfo {
  constructor(readonly engine: SearchEngine) {}
}

export const libraryModule: SubgraphModule = {
  name: 'library',
  database: { schema: 'library', entities: [...accountsEntities, ...contentEntities], migrations: libraryMigrations },
  contracts: LIBRARY_CONTRACTS,
  entities: [LibraryAccount],
  createServices(runtime) {
    const content = createContentServices(runtime);
    return [
      new EngineInfo(content.engine),
      new LibraryHealthService(runtime, content.engine),
      ...createAccountsServices(runtime),
      ...content.services,
      ...createChatServices(runtime, content.engine),
    ];
  },
  bind(services) {
    const { engine } = services.get(EngineInfo);
    return {
      implementations: [
        ...healthOperations(services),
        ...accountOperations(services),
        ...retrievalOperations(services),
        ...catalogOperations(services, engine),
        ...chatOperations(services),
        ...importOperations(services),
      ],
      fields: [...catalogFields, ...services.get(AccountKeys).fields()],
      guards: {
        public: openRoutes(services.get(AddressLimit)),
        libraryKey: services.get(LibraryAccess),
        libraryAccount: services.get(AccountKeys),
        adminToken: services.get(AdminTokenCheck),
      },
      around: libraryWrites,
    };
  },
  onReady: (runtime, services) => loadDemoOnFirstStart(runtime, services.get(LibraryImportService)),
};
