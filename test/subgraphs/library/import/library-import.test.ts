import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSearchEngine } from '../../../../subgraphs/library/search/postgres-engine.js';
import { LibraryReindexService } from '../../../../subgraphs/library/search/reindex.service.js';
import { RetrievalService } from '../../../../subgraphs/library/search/retrieval.service.js';
import { FIXTURE, importFile, libraryDatabase, silentLogger, type LibraryDatabase } from '../../../support/library-content.js';

let db: LibraryDatabase;
let engine: PostgresSearchEngine;
const rows = <T>(sql: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(sql, params);

beforeAll(async () => {
  db = await libraryDatabase();
  engine = new PostgresSearchEngine(db.orm);
});
afterAll(async () => {
  await db?.close();
});

describe('library import', () => {
  it('stores an OpenITI book with header metadata, nested parts and pages numbered through the book', async () => {
    const [book] = await importFile(db.orm.em.fork(), engine, 'openiti', FIXTURE.openiti);
    expect(book).toEqual({ bookId: '0280.IbnTayfur.Baghdad', title: 'كتاب بغداد', parts: 2, pages: 4 });
    const [stored] = await rows<Record<string, unknown>>('select * from library.book where id = ?', [book!.bookId]);
    expect(stored).toMatchObject({
      authors: ['أبو الفضل أحمد بن أبي طاهر ابن طيفور (المتوفى: 280هـ)'],
      category: 'التراجم والطبقات',
      source_format: 'openiti',
      source_uri: '0280.IbnTayfur.Baghdad',
      volumes: 1,
      part_count: 2,
      page_count: 4,
    });
    const parts = await rows<{ index: number; depth: number; parent_index: number | null; page: number }>(
      'select index, depth, parent_index, page from library.part where book_id = ? order by index',
      [book!.bookId],
    );
    expect(parts).toEqual([
      { index: 1, depth: 1, parent_index: null, page: 1 },
      { index: 2, depth: 2, parent_index: 1, page: 3 },
    ]);
    const pages = await rows<{ id: string; label: string | null; volume: string | null; text: string; markup: string }>(
      'select id, label, volume, text, markup from library.page where book_id = ? order by page',
      [book!.bookId],
    );
    expect(pages.map((page) => [page.id, page.label])).toEqual([
      ['0280.IbnTayfur.Baghdad-1', 'V01P009'],
      ['0280.IbnTayfur.Baghdad-2', 'V01P010'],
      ['0280.IbnTayfur.Baghdad-3', 'V01P011'],
      ['0280.IbnTayfur.Baghdad-4', null],
    ]);
    // Milestones and markup are stripped from the text, kept in the original markup.
    expect(pages[1]!.text).not.toMatch(/ms001|~~|PageV/);
    expect(pages[1]!.markup).toContain('ms001');
    expect(pages[1]!.markup).toContain('PageV01P010');
  });

  it('stores every book of a JSON Lines file, with parts made from the part names', async () => {
    const books = await importFile(db.orm.em.fork(), engine, 'jsonl', FIXTURE.pages);
    expect(books.map((book) => [book.bookId, book.parts, book.pages])).toEqual([
      ['adab-sabr', 2, 3],
      ['geo-masalik', 2, 3],
      ['quran-mini', 2, 2],
    ]);
    const [page] = await rows<{ markup: string | null; chars: number; text: string }>(
      'select markup, chars, text from library.page where id = ?',
      ['adab-sabr-3'],
    );
    expect(page!.markup).toContain('<b>عمر</b>');
    expect(page!.chars).toBe(page!.text.length);
  });

  it('keeps per-book document frequencies and page lengths for BM25', async () => {
    const [stat] = await rows<{ df: number }>('select df from library.term_stat where term = ? and book_id = ?', ['صبر', 'adab-sabr']);
    expect(stat!.df).toBe(3);
    const [book] = await rows<{ term_total: string }>('select term_total from library.book where id = ?', ['adab-sabr']);
    const [sum] = await rows<{ total: string }>('select sum(term_count) as total from library.page where book_id = ?', ['adab-sabr']);
    expect(Number(book!.term_total)).toBe(Number(sum!.total));
  });

  it('rolls back the book of a bad file and names the line and field at fault', async () => {
    const before = await rows<{ id: string; page_count: number }>('select id, page_count from library.book where id = ?', ['geo-masalik']);
    await expect(importFile(db.orm.em.fork(), engine, 'jsonl', FIXTURE.badPage)).rejects.toMatchObject({
      code: 'invalid_import',
      status: 422,
      param: 'page',
      message: expect.stringMatching(/^line 3: field "page"/),
    });
    expect(await rows('select id, page_count from library.book where id = ?', ['geo-masalik'])).toEqual(before);
    const [count] = await rows<{ n: string }>('select count(*) as n from library.page where book_id = ?', ['geo-masalik']);
    expect(Number(count!.n)).toBe(3);
  });

  it('replaces a re-imported book instead of adding to it, under another id when asked', async () => {
    const [again] = await importFile(db.orm.em.fork(), engine, 'openiti', FIXTURE.openiti, { bookId: 'baghdad' });
    expect(again).toMatchObject({ bookId: 'baghdad', pages: 4 });
    await importFile(db.orm.em.fork(), engine, 'openiti', FIXTURE.openiti, { bookId: 'baghdad' });
    const [count] = await rows<{ n: string }>('select count(*) as n from library.page where book_id = ?', ['baghdad']);
    expect(Number(count!.n)).toBe(4);
  });

  it('refuses a book id that cannot form page ids', async () => {
    await expect(importFile(db.orm.em.fork(), engine, 'openiti', FIXTURE.openiti, { bookId: 'bad id/with slash' })).rejects.toMatchObject({
      code: 'invalid_import',
      param: 'book_id',
    });
  });
});

describe('reindex', () => {
  it('rebuilds terms and document frequencies from the pages of record', async () => {
    await rows("update library.page set terms = ''::tsvector, term_count = 0 where book_id = 'adab-sabr'");
    await rows("delete from library.term_stat where book_id = 'adab-sabr'");
    const retrieval = new RetrievalService(engine, silentLogger);
    const ask = () => retrieval.retrieve(db.orm.em.fork(), { q: 'مفتاح الفرج', book: 'adab-sabr', limit: 8, maxChars: 700 }, 20);
    expect((await ask()).hits).toBe(0);
    const done = await new LibraryReindexService(engine, silentLogger).reindexAll(db.orm.em.fork());
    expect(done.find((book) => book.bookId === 'adab-sabr')).toEqual({ bookId: 'adab-sabr', pages: 3 });
    expect((await ask()).passages[0]?.id).toBe('adab-sabr-2');
  });
});
