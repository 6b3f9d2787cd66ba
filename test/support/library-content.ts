import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createLogger } from '../../runtime/logger.js';
import { LibraryImportService, type ImportedBook } from '../../subgraphs/library/import/library-import.service.js';
import { eventsOf, type ImportFormat, type SourceOptions } from '../../subgraphs/library/import/sources.js';
import { libraryModule } from '../../subgraphs/library/library.module.js';
import type { SearchEngine } from '../../subgraphs/library/search/search-engine.js';
import { migratedDatabase, type MigratedDatabase } from './migrated-database.js';

export const LIBRARY_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'library');

/** The OpenITI excerpt (4 pages, 2 parts), the JSON Lines library (3 books) and a file broken on line 3. */
export const FIXTURE = {
  openiti: join(LIBRARY_FIXTURES, 'baghdad-excerpt-ara1'),
  pages: join(LIBRARY_FIXTURES, 'pages.jsonl'),
  badPage: join(LIBRARY_FIXTURES, 'bad-page.jsonl'),
} as const;

export const silentLogger = createLogger('silent');

export type LibraryDatabase = MigratedDatabase;

/** A fresh database with the library's migrations applied. */
export function libraryDatabase(): Promise<LibraryDatabase> {
  return migratedDatabase(libraryModule.database);
}

export function fileLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path), crlfDelay: Infinity });
}

export function importFile(
  em: EntityManager,
  engine: SearchEngine,
  format: ImportFormat,
  path: string,
  options: SourceOptions = {},
): Promise<ImportedBook[]> {
  return new LibraryImportService(engine, silentLogger).importEvents(em, eventsOf(format, fileLines(path), options));
}
