import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithKey, startLibraryStack } from '../support/library-stack.js';
import type { TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
const get = (path: string, params: Record<string, string | number> = {}) => getWithKey(stack, key, path, params);
const BAGHDAD = '0280.IbnTayfur.Baghdad';

beforeAll(async () => {
  ({ stack, key } = await startLibraryStack());
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /v1/page', () => {
  it('returns the page read response with neighbours and links', async () => {
    const { status, body } = await get('/v1/page', { id: `${BAGHDAD}-2` });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      found: true,
      id: `${BAGHDAD}-2`,
      book_id: BAGHDAD,
      book: 'كتاب بغداد',
      category: 'التراجم والطبقات',
      authors: 'أبو الفضل أحمد بن أبي طاهر ابن طيفور (المتوفى: 280هـ)',
      part: '(ذكر خلافة عبد الله بن هارون الرشيد المأمون)',
      html: false,
      page: 2,
      volume: '01',
      volume_page: 10,
      label: 'V01P010',
      prev_id: `${BAGHDAD}-1`,
      next_id: `${BAGHDAD}-3`,
      url: `${stack.url}/v1/page?id=${BAGHDAD}-2`,
    });
    expect(body.chars).toBe(body.text.length);
    expect(body.text).not.toContain('ms001');
  });

  it('returns the original markup with html=1', async () => {
    const { body } = await get('/v1/page', { id: `${BAGHDAD}-2`, html: 1 });
    expect(body).toMatchObject({ found: true, html: true });
    expect(body.text).toContain('ms001');
    expect(body.text).toContain('PageV01P010');
    const jsonl = await get('/v1/page', { id: 'adab-sabr-3', html: 1 });
    expect(jsonl.body.text).toContain('<b>عمر</b>');
  });

  it('says found:false for an unknown id', async () => {
    expect(await get('/v1/page', { id: 'nothing-9' })).toMatchObject({ status: 200, body: { found: false, id: 'nothing-9' } });
  });
});

describe('GET /v1/book and /v1/toc', () => {
  it('returns book data with its number of parts and pages', async () => {
    const { body } = await get('/v1/book', { id: BAGHDAD });
    expect(body).toEqual({
      found: true,
      id: BAGHDAD,
      title: 'كتاب بغداد',
      authors: 'أبو الفضل أحمد بن أبي طاهر ابن طيفور (المتوفى: 280هـ)',
      author_list: ['أبو الفضل أحمد بن أبي طاهر ابن طيفور (المتوفى: 280هـ)'],
      category: 'التراجم والطبقات',
      volumes: 1,
      parts: 2,
      pages: 4,
      source_format: 'openiti',
      source_uri: BAGHDAD,
      url: `${stack.url}/v1/book?id=${BAGHDAD}`,
      toc_url: `${stack.url}/v1/toc?book=${BAGHDAD}`,
    });
    expect((await get('/v1/book', { id: 'nothing' })).body).toEqual({ found: false, id: 'nothing' });
  });

  it('lists the parts of a book in order, windowed by limit and offset', async () => {
    const { body } = await get('/v1/toc', { book: BAGHDAD });
    expect(body).toMatchObject({ found: true, book_id: BAGHDAD, book: 'كتاب بغداد', total: 2, limit: 500, offset: 0, returned: 2 });
    expect(body.parts).toEqual([
      {
        index: 1,
        depth: 1,
        title: '(ذكر خلافة عبد الله بن هارون الرشيد المأمون)',
        parent: null,
        page: 1,
        page_id: `${BAGHDAD}-1`,
        url: `${stack.url}/v1/page?id=${BAGHDAD}-1`,
      },
      {
        index: 2,
        depth: 2,
        title: '(ذكر ما كان بعد ذلك)',
        parent: 1,
        page: 3,
        page_id: `${BAGHDAD}-3`,
        url: `${stack.url}/v1/page?id=${BAGHDAD}-3`,
      },
    ]);
    const window = await get('/v1/toc', { book: BAGHDAD, limit: 1, offset: 1 });
    expect(window.body.parts.map((part: { index: number }) => part.index)).toEqual([2]);
    expect((await get('/v1/toc', { book: 'nothing' })).body).toMatchObject({ found: false, total: 0, parts: [] });
  });
});

describe('GET /v1/books', () => {
  it('lists books by title with totals, filters and a capped limit', async () => {
    const all = await get('/v1/books', { limit: 1000 });
    expect(all.body).toMatchObject({ total: 4, limit: 100, offset: 0, returned: 4 });
    expect(Object.keys(all.body.books[0]).sort()).toEqual(
      [
        'author_list',
        'authors',
        'category',
        'id',
        'pages',
        'parts',
        'source_format',
        'source_uri',
        'title',
        'toc_url',
        'url',
        'volumes',
      ].sort(),
    );
    expect((await get('/v1/books', { q: 'الممالك' })).body.books.map((book: { id: string }) => book.id)).toEqual(['geo-masalik']);
    expect((await get('/v1/books', { q: 'طيفور' })).body.books.map((book: { id: string }) => book.id)).toEqual([BAGHDAD]);
    expect((await get('/v1/books', { category: 'الزهد والرقائق' })).body.total).toBe(1);
    expect((await get('/v1/books', { author: 'خرداذبة' })).body.books[0].id).toBe('geo-masalik');
    const second = await get('/v1/books', { limit: 1, offset: 1 });
    expect(second.body).toMatchObject({ total: 4, limit: 1, offset: 1, returned: 1 });
  });

  it('adds each book’s table of contents with with_parts=1', async () => {
    const { body } = await get('/v1/books', { q: 'الممالك', with_parts: 1 });
    expect(body.books[0].toc.map((part: { title: string }) => part.title)).toEqual(['ذكر بغداد', 'ذكر البصرة']);
    expect((await get('/v1/books', { q: 'الممالك' })).body.books[0].toc).toBeUndefined();
  });
});

describe('GET /v1/categories, /v1/authors, /v1/stats', () => {
  it('counts books per category', async () => {
    const { body } = await get('/v1/categories');
    expect(body.total).toBe(4);
    expect(body.categories).toContainEqual({ name: 'البلدان والجغرافيا', books: 1 });
  });

  it('orders authors by number of books and filters them by name', async () => {
    const { body } = await get('/v1/authors', { limit: 9999 });
    expect(body.total).toBe(3);
    expect(body.authors.every((author: { books: number }) => author.books === 1)).toBe(true);
    expect((await get('/v1/authors', { q: 'خرداذبة' })).body.authors).toEqual([{ name: 'ابن خرداذبة', books: 1 }]);
  });

  it('reports totals of pages, parts, books and authors', async () => {
    expect((await get('/v1/stats')).body).toEqual({ books: 4, parts: 8, pages: 12, authors: 3, categories: 4, engine: 'postgres' });
  });
});

describe('GraphQL catalog', () => {
  it('serves nested books { parts } and pages through the gateway', async () => {
    const { status, body } = await stack.graphql(
      '{ libraryBooks(q: "الممالك") { total items { id pageCount parts { title page } } } libraryPage(id: "geo-masalik-1") { part book { title } } }',
      {},
      { authorization: `Bearer ${key}` },
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({
      libraryBooks: {
        total: 1,
        items: [
          {
            id: 'geo-masalik',
            pageCount: 3,
            parts: [
              { title: 'ذكر بغداد', page: 1 },
              { title: 'ذكر البصرة', page: 2 },
            ],
          },
        ],
      },
      libraryPage: { part: 'ذكر بغداد', book: { title: 'المسالك والممالك' } },
    });
  });
});
