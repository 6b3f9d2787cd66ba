import { serviceMap, type SubgraphModule } from '../shared/subgraph.js';
import { accountsEntities, accountsResolvers, createAccountsServices } from './accounts/accounts.module.js';
import { chatResolvers, chatStreams, createChatServices } from './chat/chat.module.js';
import { importStreams } from './import/import.stream.js';
import { LibraryHealthResolver } from './health/library-health.resolver.js';
import { LibraryHealthService } from './health/library-health.service.js';
import { contentEntities, contentResolvers, createContentServices, loadDemoOnFirstStart } from './library-content.js';
import { libraryMigrations } from './migrations/index.js';

export const libraryModule: SubgraphModule = {
  name: 'library',
  database: { schema: 'library', entities: [...accountsEntities, ...contentEntities], migrations: libraryMigrations },
  resolvers: [LibraryHealthResolver, ...accountsResolvers, ...contentResolvers, ...chatResolvers],
  createServices(runtime) {
    const content = createContentServices(runtime);
    return serviceMap(
      new LibraryHealthService(runtime, content.engine),
      ...createAccountsServices(runtime),
      ...content.services,
      ...createChatServices(runtime, content.engine),
    );
  },
  streams: { ...chatStreams, ...importStreams },
  onReady: loadDemoOnFirstStart,
};
