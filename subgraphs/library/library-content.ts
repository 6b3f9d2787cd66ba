import type { SubgraphRuntime } from '../shared/subgraph.js';
import { AdminTokenCheck } from './accounts/admin-token.js';
import { BookEntity } from './catalog/book.entity.js';
import { CatalogResolver, LibraryBookResolver, SearchEngineInfo } from './catalog/catalog.resolver.js';
import { CatalogService } from './catalog/catalog.service.js';
import { PageEntity } from './catalog/page.entity.js';
import { PartEntity } from './catalog/part.entity.js';
import { ImportResolver } from './import/import.resolver.js';
import { LibraryImportService } from './import/library-import.service.js';
import { loadDemoLibrary } from './import/quran-demo.js';
import { createSearchEngine } from './search/create-search-engine.js';
import { RetrievalResolver } from './search/retrieval.resolver.js';
import { RetrievalService } from './search/retrieval.service.js';
import type { SearchEngine } from './search/search-engine.js';

/** What the library module takes from the content side (books, import, search): entities, resolvers, services. */
export const contentEntities = [BookEntity, PartEntity, PageEntity];
export const contentResolvers = [RetrievalResolver, CatalogResolver, LibraryBookResolver, ImportResolver] as const;

export interface ContentServices {
  readonly engine: SearchEngine;
  readonly services: object[];
}

export function createContentServices(runtime: SubgraphRuntime): ContentServices {
  const engine = createSearchEngine(runtime.config, runtime.orm);
  const logger = runtime.logger;
  return {
    engine,
    services: [
      new RetrievalService(engine, logger),
      new CatalogService(),
      new SearchEngineInfo(engine),
      new LibraryImportService(engine, logger),
      new AdminTokenCheck(runtime.config.adminToken),
    ],
  };
}

/** On first start with an empty library, the demo Qur'an (config `demoLibrary`, env `DEMO_LIBRARY`). */
export async function loadDemoOnFirstStart(runtime: SubgraphRuntime): Promise<void> {
  if (!runtime.config.demoLibrary) return;
  const importer = new LibraryImportService(createSearchEngine(runtime.config, runtime.orm), runtime.logger);
  const book = await loadDemoLibrary(runtime.orm.em.fork(), importer, runtime.logger);
  if (book) runtime.logger.info({ bookId: book.bookId, parts: book.parts, pages: book.pages }, 'demo library imported');
}
