import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE } from '../support/library-content.js';
import { ADMIN_TOKEN, adminKey } from '../support/library-keys.js';
import { adminImport, getWithKey } from '../support/library-stack.js';
import { startStack, type TestStack } from '../support/stack.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

let stack: TestStack;
let key: string;
const get = (path: string, params: Record<string, string | number> = {}) => getWithKey(stack, key, path, params);

beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
  key = (await adminKey(stack, 'unlimited')).key;
});
afterAll(async () => {
  await stack?.stop();
});

describe('POST /admin/import', () => {
  it('imports OpenITI mARkdown sent as text/markdown', async () => {
    const response = await adminImport(stack, 'openiti');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      book_id: '0280.IbnTayfur.Baghdad',
      parts: 2,
      pages: 4,
      books: [{ book_id: '0280.IbnTayfur.Baghdad', title: 'كتاب بغداد', parts: 2, pages: 4 }],
    });
  });

  it('imports every book of JSON Lines pages sent as application/x-ndjson', async () => {
    const body = (await (await adminImport(stack, 'pages')).json()) as {
      book_id: string;
      pages: number;
      books: Array<{ book_id: string }>;
    };
    expect(body).toMatchObject({ book_id: 'adab-sabr', parts: 6, pages: 8 });
    expect(body.books.map((book) => book.book_id)).toEqual(['adab-sabr', 'geo-masalik', 'quran-mini']);
  });

  it('stores the book under ?book_id= and replaces it on re-import', async () => {
    for (let round = 0; round < 2; round++) {
      expect(await (await adminImport(stack, 'openiti', '?book_id=baghdad')).json()).toMatchObject({ book_id: 'baghdad', pages: 4 });
    }
    expect((await get('/v1/book', { id: 'baghdad' })).body).toMatchObject({ found: true, pages: 4, parts: 2 });
    expect((await get('/v1/retrieve', { q: 'المأمون', book: 'baghdad', limit: 20 })).body.hits).toBe(3);
  });

  it('answers 422 naming the line and field of a bad file, and keeps the book as it was', async () => {
    const response = await adminImport(stack, 'badPage');
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: Array<Record<string, unknown>> };
    expect(detail).toEqual([
      {
        loc: ['body', 3, 'page'],
        msg: 'line 3: field "page": must be a positive integer, got "three"',
        type: 'value_error',
        input: null,
        ctx: { line: 3, field: 'page' },
      },
    ]);
    expect((await get('/v1/book', { id: 'geo-masalik' })).body).toMatchObject({ pages: 3 });
  });

  it('refuses a missing or wrong admin token with 401', async () => {
    for (const token of [null, 'wrong-token-wrong-token']) {
      const response = await adminImport(stack, 'openiti', '', token);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Not authenticated' });
    }
  });

  it('refuses a body whose content type names no import format', async () => {
    const response = await stack.fetch('/admin/import', {
      method: 'POST',
      headers: { 'content-type': 'image/png', 'x-admin-token': ADMIN_TOKEN },
      body: 'x',
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ msg: string }> }).detail[0]!.msg).toMatch(/format must be one of openiti, jsonl/);
  });
});

describe('npm run import and npm run reindex', () => {
  it('import a file into the running server’s database, then rebuild the index', async () => {
    const env = { ...process.env, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: 'silent', ADMIN_TOKEN };
    const imported = await run('npx', ['tsx', 'scripts/import.ts', FIXTURE.openiti, '--book-id', 'from-cli'], { cwd: ROOT, env });
    expect(imported.stdout).toContain('from-cli — 2 parts, 4 pages');
    expect((await get('/v1/book', { id: 'from-cli' })).body).toMatchObject({ found: true, pages: 4 });
    const reindexed = await run('npx', ['tsx', 'scripts/reindex.ts'], { cwd: ROOT, env });
    expect(reindexed.stdout).toMatch(/reindex: \d+ book\(s\), \d+ pages indexed with postgres/);
    expect((await get('/v1/retrieve', { q: 'المأمون', book: 'from-cli' })).body.hits).toBe(3);
  });

  it('exits 1 and names the line of a bad file', async () => {
    const env = { ...process.env, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: 'silent' };
    const failed = await run('npx', ['tsx', 'scripts/import.ts', FIXTURE.badPage], { cwd: ROOT, env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('bad-page.jsonl: import failed: line 3: field "page"');
  });
});

describe('demo library', () => {
  it('imports the Qur’an on first start with an empty library, surahs as parts', async () => {
    const demo = await startStack({ ADMIN_TOKEN, DEMO_LIBRARY: 'true' });
    try {
      const demoKey = (await adminKey(demo, 'unlimited')).key;
      const book = await getWithKey(demo, demoKey, '/v1/book', { id: 'quran' });
      expect(book.body).toMatchObject({ found: true, title: 'القرآن الكريم', parts: 114 });
      // Plain spelling finds the Uthmani text (superscript alef in ٱلۡعَٰلَمِينَ).
      const found = await getWithKey(demo, demoKey, '/v1/retrieve', { q: 'الحمد لله رب العالمين', book: 'quran', limit: 10 });
      expect(found.body.passages).toContainEqual(expect.objectContaining({ id: 'quran-1', part: 'سورة الفاتحة' }));
      expect(found.body.passages[0].text).toContain('ٱلۡعَٰلَمِينَ');
    } finally {
      await demo.stop();
    }
  });
});
