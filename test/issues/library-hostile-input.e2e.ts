import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminKey, adminPost, json, RATE_LIMIT_HEADERS } from '../support/library-keys.js';
import { startLibraryStack } from '../support/library-stack.js';
import type { TestStack } from '../support/stack.js';

/**
 * Cases of a hostile probe of the library: NUL bytes in any string, lengths of
 * characters outside the BMP, refused input and quota, admin body errors. None may
 * answer 5xx; each answers in its family's documented shape.
 */

let stack: TestStack;
let key: string;

beforeAll(async () => {
  ({ stack, key } = await startLibraryStack(['pages']));
});
afterAll(async () => {
  await stack?.stop();
});

const get = (path: string, token = key) => stack.fetch(path, { headers: { authorization: `Bearer ${token}` } });

describe('a NUL byte in a string argument', () => {
  it.each([
    ['/v1/books?q=a%00b', 'q'],
    ['/v1/retrieve?q=%D8%A7%D9%84%D8%B5%D8%A8%D8%B1&book=a%00b', 'book'],
    ['/v1/books?category=a%00b', 'category'],
    ['/v1/books?author=a%00b', 'author'],
    ['/v1/retrieve?q=%D8%A7%00%D8%A8', 'q'],
    ['/v1/search?q=a%00b', 'q'],
    ['/v1/page?id=adab-sabr-1%00', 'id'],
    ['/v1/book?id=adab%00', 'id'],
    ['/v1/toc?book=adab%00', 'book'],
    ['/v1/authors?q=a%00', 'q'],
  ])('%s is a 422 naming %s, never a 500', async (path, param) => {
    const response = await get(path);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_parameter', param, type: 'invalid_request_error' } });
  });

  it('in a registration e-mail or organisation is a 422', async () => {
    for (const body of [{ email: 'a\u0000@example.org' }, { email: 'b@example.org', org: 'x\u0000' }]) {
      const response = await stack.fetch('/v1/register', json(body));
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('in an admin e-mail is a 422 detail item', async () => {
    const response = await adminPost(stack, '/admin/keys', { email: 'a\u0000@example.org', plan: 'free' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: unknown[] }).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'email'], msg: 'must not contain NUL characters' }),
    ]);
  });

  it('in a GraphQL string argument is a 422 with the same message', async () => {
    const { status, body } = await stack.graphql('{ libraryBooks(q: "a\\u0000b") { total } }', {}, { authorization: `Bearer ${key}` });
    expect(status).toBe(422);
    expect(body.errors?.[0]).toMatchObject({ message: 'q: must not contain NUL characters', extensions: { code: 'invalid_parameter' } });
  });

  it('in the text of an imported page refuses the whole import, naming the line', async () => {
    const page = { book_id: 'nul-book', book: 'كتاب', authors: 'مؤلف', category: 'تجربة', part: 'باب', page: 1, text: 'نص\u0000نص' };
    const response = await stack.fetch('/admin/import', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-admin-token': ADMIN_TOKEN },
      body: `${JSON.stringify(page)}\n`,
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('must not contain NUL characters');
    expect((await (await get('/v1/book?id=nul-book')).json()) as object).toEqual({ found: false, id: 'nul-book' });
  });
});

describe('lengths', () => {
  it('counts q in characters: 300 letters outside the BMP (600 UTF-16 units) are within 2 to 500', async () => {
    const q = '𝕏'.repeat(300);
    const response = await get(`/v1/retrieve?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { query: string }).query).toBe(q);
    expect((await get(`/v1/retrieve?q=${encodeURIComponent('𝕏'.repeat(501))}`)).status).toBe(422);
  });
});

describe('input refused as invalid', () => {
  const remaining = (response: Response) => Number(response.headers.get('x-quota-remaining'));

  it('carries every rate-limit header and counts nothing, whichever route and whoever found it', async () => {
    const fresh = (await adminKey(stack, 'pro')).key;
    const before = remaining(await get('/v1/me', fresh));
    const chat = (body: unknown) => stack.fetch('/v1/chat/completions', json(body, { authorization: `Bearer ${fresh}` }));
    const refused = [
      await get('/v1/retrieve?q=%D8%A7%D9%84%D8%B5%D8%A8%D8%B1&limit=abc', fresh),
      await get('/v1/retrieve?q=%D8%A7%D9%84%D8%B5%D8%A8%D8%B1&max_chars=x&page=7', fresh),
      await get('/v1/page', fresh),
      await chat({ messages: 'hello', temperature: 'hot' }),
      await chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'سؤال' }] }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(422);
      for (const header of RATE_LIMIT_HEADERS) expect(response.headers.get(header), header).not.toBeNull();
      expect(remaining(response)).toBe(before);
    }
    expect(remaining(await get('/v1/me', fresh))).toBe(before - 1);
  });

  it('answers 401 before 422 when no key is sent', async () => {
    const response = await stack.fetch('/v1/retrieve?limit=abc');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'missing_api_key' } });
  });
});

describe('admin bodies that cannot be read', () => {
  it('answers 415 and 413 with the admin detail list, keeping their statuses', async () => {
    const wrongType = await stack.fetch('/admin/keys', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-admin-token': ADMIN_TOKEN },
      body: 'email=a@example.org',
    });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { detail: unknown[] }).detail).toEqual([
      expect.objectContaining({ loc: ['header', 'content-type'], type: 'unsupported_media_type' }),
    ]);
    const tooLarge = await adminPost(stack, '/admin/keys', { email: 'a@example.org', plan: 'free', org: 'x'.repeat(2_000_000) });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { detail: unknown[] }).detail).toEqual([
      expect.objectContaining({ loc: ['body'], type: 'payload_too_large' }),
    ]);
  });
});
