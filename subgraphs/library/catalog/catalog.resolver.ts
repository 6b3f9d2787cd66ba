import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context.js';
import { LibraryAccess } from '../accounts/access.service.js';
import { LibraryError } from '../library-errors.js';
import type { SearchEngine } from '../search/search-engine.js';
import { bookPartsLoader } from './book-parts.loader.js';
import { CATALOG_LIMITS, CatalogService, capWindow } from './catalog.service.js';
import {
  LibraryAuthorList,
  LibraryBook,
  LibraryBookList,
  LibraryCatalogCount,
  LibraryPage,
  LibraryPart,
  LibraryStats,
  LibraryToc,
} from './catalog.types.js';

/** The engine in use, so `libraryStats` can name it. */
export class SearchEngineInfo {
  constructor(readonly engine: Pick<SearchEngine, 'kind'>) {}
}

@Resolver()
export class CatalogResolver {
  static readonly inject = [LibraryAccess, CatalogService, SearchEngineInfo];

  constructor(
    private readonly access: LibraryAccess,
    private readonly catalog: CatalogService,
    private readonly engineInfo: SearchEngineInfo,
  ) {}

  @Query(() => LibraryPage, { nullable: true, description: 'Full text of a page (`/v1/page`); null for an unknown id.' })
  async libraryPage(
    @Ctx() ctx: SubgraphContext,
    @Arg('id', () => String, { nullable: true }) id: string | null,
    @Arg('html', () => Boolean, { nullable: true, description: 'Return the original markup.' }) html: boolean | null,
  ): Promise<LibraryPage | null> {
    await this.access.admit(ctx, 'page');
    return this.catalog.page(ctx.em, LibraryError.required('id', id), html === true) as Promise<LibraryPage | null>;
  }

  @Query(() => LibraryBook, { nullable: true, description: 'A book (`/v1/book`); null for an unknown id.' })
  async libraryBook(
    @Ctx() ctx: SubgraphContext,
    @Arg('id', () => String, { nullable: true }) id: string | null,
  ): Promise<LibraryBook | null> {
    await this.access.admit(ctx, 'book');
    return this.catalog.book(ctx.em, LibraryError.required('id', id)) as Promise<LibraryBook | null>;
  }

  @Query(() => LibraryToc, { description: 'Table of contents of a book (`/v1/toc`), in heading order.' })
  async libraryToc(
    @Ctx() ctx: SubgraphContext,
    @Arg('book', () => String, { nullable: true }) book: string | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Default 500, capped at 5000.' }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset: number | null,
  ): Promise<LibraryToc> {
    await this.access.admit(ctx, 'toc');
    const bookId = LibraryError.required('book', book);
    const toc = await this.catalog.toc(ctx.em, bookId, capWindow(limit, offset, CATALOG_LIMITS.toc));
    return Object.assign(new LibraryToc(), { ...toc, bookId, items: toc.parts });
  }

  @Query(() => LibraryBookList, { description: 'Books by title (`/v1/books`), filtered; `limit` default 20, capped at 100.' })
  async libraryBooks(
    @Ctx() ctx: SubgraphContext,
    @Arg('q', () => String, { nullable: true, description: 'Part of the title or of an author name.' }) q: string | null,
    @Arg('category', () => String, { nullable: true }) category: string | null,
    @Arg('author', () => String, { nullable: true }) author: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset: number | null,
  ): Promise<LibraryBookList> {
    await this.access.admit(ctx, 'books');
    const list = await this.catalog.books(ctx.em, { q, category, author }, capWindow(limit, offset, CATALOG_LIMITS.books));
    return Object.assign(new LibraryBookList(), { ...list, items: list.books });
  }

  @Query(() => [LibraryCatalogCount], { description: 'Categories with their number of books, most first (`/v1/categories`).' })
  async libraryCategories(@Ctx() ctx: SubgraphContext): Promise<LibraryCatalogCount[]> {
    await this.access.admit(ctx, 'categories');
    return this.catalog.categories(ctx.em);
  }

  @Query(() => LibraryAuthorList, { description: 'Authors by number of books (`/v1/authors`); `limit` default 50, capped at 500.' })
  async libraryAuthors(
    @Ctx() ctx: SubgraphContext,
    @Arg('q', () => String, { nullable: true, description: 'Part of the name.' }) q: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
  ): Promise<LibraryAuthorList> {
    await this.access.admit(ctx, 'authors');
    const { limit: capped } = capWindow(limit, 0, CATALOG_LIMITS.authors);
    const found = await this.catalog.authors(ctx.em, q?.trim() ? q.trim() : null, capped);
    return Object.assign(new LibraryAuthorList(), { total: found.total, items: found.authors });
  }

  @Query(() => LibraryStats, { description: 'Totals of the index (`/v1/stats`).' })
  async libraryStats(@Ctx() ctx: SubgraphContext): Promise<LibraryStats> {
    await this.access.admit(ctx, 'stats');
    return { ...(await this.catalog.stats(ctx.em)), engine: this.engineInfo.engine.kind };
  }
}

/** Nested fields of a book, batched per request. */
@Resolver(() => LibraryBook)
export class LibraryBookResolver {
  @FieldResolver(() => [LibraryPart], { description: 'Headings in order; `limit` default 500, capped at 5000.' })
  parts(
    @Root() book: LibraryBook,
    @Ctx() ctx: SubgraphContext,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset: number | null,
  ): Promise<LibraryPart[]> {
    return bookPartsLoader(ctx.em, capWindow(limit, offset, CATALOG_LIMITS.toc)).load(book.id) as Promise<LibraryPart[]>;
  }
}
