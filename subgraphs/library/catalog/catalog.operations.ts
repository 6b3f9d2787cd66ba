import {
  libraryAuthors,
  libraryBook,
  libraryBooks,
  libraryCategories,
  libraryPage,
  libraryStats,
  libraryToc,
} from '../../../contracts/library/catalog.contract.js';
import { CATALOG_WINDOWS, LibraryBook } from '../../../contracts/library/content-types.js';
import { implement, implementFields, type FieldImplementation, type Implementation } from '../../shared/contracts/implementation.js';
import { offsetWindow } from '../../shared/cursor-list.js';
import type { Services } from '../../shared/subgraph.js';
import type { SearchEngine } from '../search/search-engine.js';
import { bookPartsLoader } from './book-parts.loader.js';
import { CatalogService } from './catalog.service.js';

/** Reading and catalog. */
export function catalogOperations(services: Services, engine: Pick<SearchEngine, 'kind'>): Implementation[] {
  const catalog = services.get(CatalogService);
  return [
    implement(libraryPage, (input, { ctx }) => catalog.page(ctx.em, input.id.trim(), input.html)),
    implement(libraryBook, (input, { ctx }) => catalog.book(ctx.em, input.id.trim())),
    implement(libraryToc, async (input, { ctx }) => {
      const bookId = input.book.trim();
      const toc = await catalog.toc(ctx.em, bookId, offsetWindow(input.limit, input.offset, CATALOG_WINDOWS.toc));
      return { ...toc, bookId, items: toc.parts };
    }),
    implement(libraryBooks, async (input, { ctx }) => {
      const { q, category, author } = input;
      const list = await catalog.books(ctx.em, { q, category, author }, offsetWindow(input.limit, input.offset, CATALOG_WINDOWS.books));
      return { ...list, items: list.books };
    }),
    implement(libraryCategories, (_input, { ctx }) => catalog.categories(ctx.em)),
    implement(libraryAuthors, async (input, { ctx }) => {
      const { limit } = offsetWindow(input.limit, 0, CATALOG_WINDOWS.authors);
      const found = await catalog.authors(ctx.em, input.q?.trim() ? input.q.trim() : null, limit);
      return { total: found.total, items: found.authors };
    }),
    implement(libraryStats, async (_input, { ctx }) => ({ ...(await catalog.stats(ctx.em)), engine: engine.kind })),
  ];
}

/** `LibraryBook.parts(limit, offset)`, batched per request. */
export const catalogFields: FieldImplementation[] = [
  implementFields(LibraryBook, {
    parts: (book, args: { limit?: number; offset?: number }, ctx) =>
      bookPartsLoader(ctx.em, offsetWindow(args.limit, args.offset, CATALOG_WINDOWS.toc)).load(book.id),
  }),
];
