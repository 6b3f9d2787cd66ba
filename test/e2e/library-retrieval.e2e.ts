import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded-postgres.js';
import { ADMIN_TOKEN, adminKey, json } from '../support/library-keys.js';
import { getWithKey, startLibraryStack } from '../support/library-stack.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
const get = (path: string, params: Record<string, string | number> = {}) => getWithKey(stack, key, path, params);

beforeAll(async () => {
  ({ stack, key } = await startLibraryStack());
});
afterAll(async () => {
  await stack?.stop();
});

const PASSAGE_FIELDS = [
  'authors',
  'book',
  'book_id',
  'book_url',
  'category',
  'id',
  'length',
  'page_chars',
  'page_id',
  'part',
  'score',
  'start',
  'text',
  'url',
];

describe('GET /v1/retrieve', () => {
  it('needs the bearer key on every /v1 read (401 missing_api_key)', async () => {
    for (const path of [
      '/v1/retrieve?q=الصبر',
      '/v1/search?q=الصبر',
      '/v1/page?id=x-1',
      '/v1/book?id=x',
      '/v1/toc?book=x',
      '/v1/books',
      '/v1/categories',
      '/v1/authors',
      '/v1/stats',
    ]) {
      const response = await stack.fetch(encodeURI(path));
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({ error: { type: 'authentication_error', code: 'missing_api_key', param: null } });
    }
  });

  it('answers a key from POST /v1/register and counts the call against its quota', async () => {
    const registered = await stack.fetch('/v1/register', json({ email: 'reader@example.org' }));
    expect(registered.status).toBe(201);
    const { key: fresh } = (await registered.json()) as { key: string };
    const first = await getWithKey(stack, fresh, '/v1/retrieve', { q: 'الصبر' });
    const second = await getWithKey(stack, fresh, '/v1/retrieve', { q: 'الصبر' });
    expect(first.status).toBe(200);
    expect(Number(first.headers.get('x-quota-remaining')) - Number(second.headers.get('x-quota-remaining'))).toBe(1);
  });

  it('returns passages with the documented fields, absolute links and exact slices of the page', async () => {
    const { status, body } = await get('/v1/retrieve', { q: 'الصبر مفتاح الفرج', limit: 3 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ query: 'الصبر مفتاح الفرج', mode: 'passage', returned: body.passages.length });
    expect(body.hits).toBeGreaterThanOrEqual(body.returned);
    const [best] = body.passages;
    expect(Object.keys(best).sort()).toEqual(PASSAGE_FIELDS);
    expect(best).toMatchObject({
      id: 'adab-sabr-2',
      page_id: 'adab-sabr-2',
      book_id: 'adab-sabr',
      book: 'كتاب الصبر والثواب عليه',
      category: 'الزهد والرقائق',
      authors: 'ابن أبي الدنيا',
      part: 'باب الصبر',
      url: `${stack.url}/v1/page?id=adab-sabr-2`,
      book_url: `${stack.url}/v1/book?id=adab-sabr`,
    });
    expect(typeof best.score).toBe('number');
    const page = await get('/v1/page', { id: best.id });
    expect(page.body.text.slice(best.start, best.start + best.length)).toBe(best.text);
    expect(best.page_chars).toBe(page.body.chars);
  });

  it('adds the whole page as page_text with page=1 and keeps passages within max_chars', async () => {
    const { body } = await get('/v1/retrieve', { q: 'المأمون بغداد', page: 1, max_chars: 120, limit: 2 });
    for (const passage of body.passages) {
      expect(passage.length).toBeLessThanOrEqual(120);
      expect(passage.page_text.length).toBe(passage.page_chars);
      expect(passage.page_text.slice(passage.start, passage.start + passage.length)).toBe(passage.text);
    }
  });

  it('filters by book id or title, category and author', async () => {
    expect(
      (await get('/v1/retrieve', { q: 'دجلة', book: 'geo-masalik' })).body.passages.map((p: { book_id: string }) => p.book_id),
    ).toEqual(['geo-masalik', 'geo-masalik']);
    expect(
      (await get('/v1/retrieve', { q: 'دجلة', book: 'كتاب بغداد' })).body.passages.every(
        (p: { book_id: string }) => p.book_id === '0280.IbnTayfur.Baghdad',
      ),
    ).toBe(true);
    expect((await get('/v1/retrieve', { q: 'الصبر', category: 'القرآن الكريم' })).body.passages.map((p: { id: string }) => p.id)).toEqual([
      'quran-mini-2',
    ]);
    expect((await get('/v1/retrieve', { q: 'الصبر', author: 'الدنيا' })).body.hits).toBe(3);
  });

  it.each([
    [{}, 'q', 'is required'],
    [{ q: 'ا' }, 'q', 'must be 2 to 500 characters long'],
    [{ q: 'ب'.repeat(501) }, 'q', 'must be 2 to 500 characters long'],
    [{ q: 'الصبر', limit: 0 }, 'limit', 'must be an integer from 1 to 20'],
    [{ q: 'الصبر', limit: 21 }, 'limit', 'must be an integer from 1 to 20'],
    [{ q: 'الصبر', limit: 'many' }, 'limit', 'must be an integer'],
    [{ q: 'الصبر', max_chars: 119 }, 'max_chars', 'must be an integer from 120 to 2000'],
    [{ q: 'الصبر', max_chars: 2001 }, 'max_chars', 'must be an integer from 120 to 2000'],
    [{ q: 'الصبر', page: 2 }, 'page', 'must be 0 or 1'],
  ])('answers 422 with the documented body for %j', async (params, field, message) => {
    const { status, body } = await get('/v1/retrieve', params as Record<string, string | number>);
    expect(status).toBe(422);
    expect(body).toEqual({
      error: {
        message: `${field}: ${message}`,
        type: 'invalid_request_error',
        code: 'invalid_parameter',
        param: field,
        details: [{ field, message }],
      },
    });
  });

  it('lists every invalid parameter at once', async () => {
    const { body } = await get('/v1/retrieve', { q: 'ا', limit: 50, max_chars: 5 });
    expect(body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['q', 'limit', 'max_chars']);
  });
});

describe('GET /v1/search', () => {
  it('returns page-level passages up to twice max_chars, in the retrieve shape', async () => {
    const { status, body } = await get('/v1/search', { q: 'المأمون', max_chars: 150 });
    expect(status).toBe(200);
    expect(body.mode).toBe('page');
    expect(body.passages.length).toBeGreaterThan(0);
    expect(body.passages.some((p: { length: number }) => p.length > 150)).toBe(true);
    for (const passage of body.passages) expect(passage.length).toBeLessThanOrEqual(300);
  });

  it('caps values beyond the documented bounds instead of refusing them', async () => {
    const { status, body } = await get('/v1/search', { q: 'المأمون', max_chars: 10, limit: 500 });
    expect(status).toBe(200);
    expect(body.passages.length).toBeLessThanOrEqual(20);
    for (const passage of body.passages) expect(passage.length).toBeLessThanOrEqual(240);
  });
});

describe('a failing search engine', () => {
  let broken: TestStack;
  beforeAll(async () => {
    // Meilisearch configured on a loopback port nobody listens on.
    broken = await startStack({ ADMIN_TOKEN, MEILI_HOST: `http://127.0.0.1:${await freePort()}` });
  });
  afterAll(async () => {
    await broken?.stop();
  });

  it('answers 502 search_unavailable in the library error shape', async () => {
    const brokenKey = (await adminKey(broken, 'unlimited')).key;
    for (const path of ['/v1/retrieve', '/v1/search']) {
      const { status, body } = await getWithKey(broken, brokenKey, path, { q: 'الصبر' });
      expect(status).toBe(502);
      expect(body).toEqual({
        error: {
          message: 'the search engine (meilisearch) did not answer',
          type: 'upstream_error',
          code: 'search_unavailable',
          param: null,
          details: null,
        },
      });
    }
  });
});
