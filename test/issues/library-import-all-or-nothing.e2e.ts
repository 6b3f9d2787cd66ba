import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminKey } from '../support/library-keys.js';
import { getWithKey } from '../support/library-stack.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;

beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
  key = (await adminKey(stack, 'unlimited')).key;
});
afterAll(async () => {
  await stack?.stop();
});

const page = (bookId: string, number: number | string, text: string) =>
  JSON.stringify({ book_id: bookId, book: `كتاب ${bookId}`, authors: 'مؤلف', category: 'أدب', part: 'باب', page: number, text });

const importJsonl = (lines: string[]) =>
  stack.fetch('/admin/import', {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'x-admin-token': ADMIN_TOKEN },
    body: `${lines.join('\n')}\n`,
  });

describe('POST /admin/import of several books', () => {
  it('stores none of them when a line of the second book is bad: the first book does not exist after the 422', async () => {
    const response = await importJsonl([
      page('first-book', 1, 'الصفحة الأولى من الكتاب الأول'),
      page('first-book', 2, 'الصفحة الثانية من الكتاب الأول'),
      page('second-book', 1, 'الصفحة الأولى من الكتاب الثاني'),
      page('second-book', 'two', 'صفحة رقمها خطأ'),
    ]);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: Array<{ msg: string; ctx: { line: number } }> };
    expect(detail[0]?.ctx.line).toBe(4);
    expect(detail[0]?.msg).not.toMatch(/imported/);
    for (const id of ['first-book', 'second-book']) {
      expect((await getWithKey(stack, key, '/v1/book', { id })).body, id).toEqual({ found: false, id });
    }
  });

  it('leaves a book imported before as it was when a later import that replaces it fails', async () => {
    expect((await importJsonl([page('kept-book', 1, 'النص الأول')])).status).toBe(200);
    const failed = await importJsonl([page('kept-book', 1, 'نص بديل'), page('kept-book', 2, 'نص بديل'), page('other-book', 'x', 'خطأ')]);
    expect(failed.status).toBe(422);
    expect((await getWithKey(stack, key, '/v1/book', { id: 'kept-book' })).body).toMatchObject({ found: true, pages: 1 });
    expect((await getWithKey(stack, key, '/v1/page', { id: 'kept-book-1' })).body).toMatchObject({ text: 'النص الأول' });
  });
});
