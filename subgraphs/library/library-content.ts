import type { SubgraphRuntime } from '../shared/subgraph.js';
import { BookEntity } from './catalog/book.entity.js';
import { CatalogService } from './catalog/catalog.service.js';
import { PageEntity } from './catalog/page.entity.js';
import { PartEntity } from './catalog/part.entity.js';
import { LibraryImportService } from './import/library-import.service.js';
import { loadDemoLibrary } from './import/quran-demo.js';
import { createSearchEngine } from './search/create-search-engine.js';
import { PostingEntity, PostingSegmentEntity, TermStatEntity } from './search/posting.entity.js';
import { RetrievalService } from './search/retrieval.service.js';
import type { SearchEngine } from './search/search-engine.js';

/** What the library module takes from the content side (books, import, search): entities and services. */
export const contentEntities = [BookEntity, PartEntity, PageEntity, PostingSegmentEntity, PostingEntity, TermStatEntity];

export interface ContentServices {
  readonly engine: SearchEngine;
  readonly services: object[];
}

export function createContentServices(runtime: SubgraphRuntime): ContentServices {
  const engine = createSearchEngine(runtime.config, runtime.orm);
  const logger = runtime.logger;
  return {
    engine,
    services: [new RetrievalService(engine, logger), new CatalogService(), new LibraryImportService(engine, logger)],
  };
}

/** On first start with an empty library, the demo Qur'an (config `demoLibrary`, env `DEMO_LIBRARY`). */
export async function loadDemoOnFirstStart(runtime: SubgraphRuntime, importer: LibraryImportService): Promise<void> {
  if (!runtime.config.demoLibrary) return;
  const book = await loadDemoLibrary(runtime.orm.em.fork(), importer, runtime.logger);
  if (book) runtime.logger.info({ bookId: book.bookId, parts: book.parts, pages: book.pages }, 'demo library imported');
}
