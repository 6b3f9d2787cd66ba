import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentKey, MeilisearchEngine, PAGE_INDEX_SETTINGS } from '../../../../subgraphs/library/search/meilisearch-engine.js';
import { PostgresSearchEngine } from '../../../../subgraphs/library/search/postgres-engine.js';
import { RetrievalService } from '../../../../subgraphs/library/search/retrieval.service.js';
import { FIXTURE, importFile, libraryDatabase, silentLogger, type LibraryDatabase } from '../../../support/library-content.js';

interface Recorded {
  method: string;
  path: string;
  body: unknown;
  headers: IncomingMessage['headers'];
}

/**
 * A loopback HTTP server that answers as Meilisearch does (tasks enqueued then succeeded, search
 * hits) and records what the official client sends; no Meilisearch server runs on these machines.
 */
class FakeMeilisearch {
  readonly requests: Recorded[] = [];
  searchAnswer: Record<string, unknown> = {
    hits: [],
    totalHits: 0,
    hitsPerPage: 8,
    page: 1,
    totalPages: 0,
    processingTimeMs: 1,
    query: '',
  };
  failSearch = false;
  private server: Server | undefined;
  private taskUid = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', 'http://fake');
        this.requests.push({
          method: req.method ?? '',
          path: url.pathname + url.search,
          body: raw ? JSON.parse(raw) : undefined,
          headers: req.headers,
        });
        const [status, body] = this.answer(req.method ?? '', url.pathname);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  of(method: string, prefix: string): Recorded[] {
    return this.requests.filter((request) => request.method === method && request.path.startsWith(prefix));
  }

  private answer(method: string, path: string): [number, unknown] {
    if (path === '/health') return [200, { status: 'available' }];
    const task = /^\/tasks\/(\d+)$/.exec(path);
    if (task)
      return [200, { uid: Number(task[1]), taskUid: Number(task[1]), status: 'succeeded', type: 'documentAdditionOrUpdate', error: null }];
    if (path.endsWith('/search')) {
      if (this.failSearch) return [500, { message: 'internal', code: 'internal', type: 'internal', link: '' }];
      return [200, this.searchAnswer];
    }
    if (method !== 'GET') {
      this.taskUid += 1;
      return [
        202,
        { taskUid: this.taskUid, indexUid: 'library_pages', status: 'enqueued', type: 'unknown', enqueuedAt: new Date().toISOString() },
      ];
    }
    return [404, { message: 'not found', code: 'not_found', type: 'invalid_request', link: '' }];
  }
}

describe('Meilisearch engine (requests of the official client, against a loopback fake)', () => {
  const fake = new FakeMeilisearch();
  let db: LibraryDatabase;
  let engine: MeilisearchEngine;

  beforeAll(async () => {
    const host = await fake.start();
    db = await libraryDatabase();
    engine = new MeilisearchEngine({ host, apiKey: 'meili-test-key', batchSize: 2 });
    // Pages of record are written by the import (PostgreSQL), then handed to Meilisearch per book.
    await importFile(db.orm.em.fork(), new PostgresSearchEngine(db.orm), 'jsonl', FIXTURE.pages);
  });
  afterAll(async () => {
    await fake.stop();
    await db?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failSearch = false;
  });

  it('applies the index settings once: searchable terms and text, filterable book and category, Arabic locale', async () => {
    await engine.indexBook('adab-sabr', db.orm.em.fork());
    await engine.indexBook('geo-masalik', db.orm.em.fork());
    const settings = fake.of('PATCH', '/indexes/library_pages/settings');
    expect(settings).toHaveLength(1);
    expect(settings[0]!.body).toEqual(PAGE_INDEX_SETTINGS);
    expect(settings[0]!.body).toMatchObject({
      searchableAttributes: ['terms', 'text'],
      filterableAttributes: ['book_id', 'category'],
      localizedAttributes: [{ attributePatterns: ['terms', 'text'], locales: ['ara'] }],
    });
    expect(settings[0]!.headers.authorization).toBe('Bearer meili-test-key');
  });

  it('replaces a book: deletes its documents by filter, then uploads its pages in batches with analysed terms', async () => {
    await engine.indexBook('adab-sabr', db.orm.em.fork());
    const deletions = fake.of('POST', '/indexes/library_pages/documents/delete');
    expect(deletions.map((request) => request.body)).toEqual([{ filter: 'book_id = "adab-sabr"' }]);
    const uploads = fake.of('POST', '/indexes/library_pages/documents?');
    expect(uploads.map((request) => request.path)).toEqual([
      '/indexes/library_pages/documents?primaryKey=key',
      '/indexes/library_pages/documents?primaryKey=key',
    ]);
    const documents = uploads.flatMap((request) => request.body as Array<Record<string, unknown>>);
    expect(documents.map((document) => document.page_id)).toEqual(['adab-sabr-1', 'adab-sabr-2', 'adab-sabr-3']);
    expect(documents[1]).toMatchObject({
      key: documentKey('adab-sabr-2'),
      book_id: 'adab-sabr',
      book: 'كتاب الصبر والثواب عليه',
      category: 'الزهد والرقائق',
      authors: ['ابن أبي الدنيا'],
      part: 'باب الصبر',
    });
    expect(String(documents[1]!.terms).split(' ')).toEqual(expect.arrayContaining(['صبر', 'مفتاح', 'فرج']));
    expect(documents[1]!.key).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('searches with analysed terms, the Arabic locale, a book filter and an exact hit count', async () => {
    fake.searchAnswer = {
      hits: [
        { page_id: 'adab-sabr-2', _rankingScore: 0.93 },
        { page_id: 'adab-sabr-1', _rankingScore: 0.41 },
      ],
      totalHits: 5,
      hitsPerPage: 2,
      page: 1,
      totalPages: 3,
      processingTimeMs: 1,
      query: 'صبر مفتاح',
    };
    const retrieval = new RetrievalService(engine, silentLogger);
    const result = await retrieval.retrieve(db.orm.em.fork(), { q: 'الصبر مفتاح', limit: 2, book: 'adab-sabr', maxChars: 700 }, 20);
    const [search] = fake.of('POST', '/indexes/library_pages/search');
    expect(search!.body).toEqual({
      q: 'صبر مفتاح',
      filter: 'book_id IN ["adab-sabr"]',
      hitsPerPage: 2,
      page: 1,
      showRankingScore: true,
      attributesToRetrieve: ['page_id'],
      matchingStrategy: 'frequency',
      locales: ['ara'],
    });
    expect(result.hits).toBe(5);
    expect(result.passages.map((passage) => [passage.id, passage.score])).toEqual([
      ['adab-sabr-2', 0.93],
      ['adab-sabr-1', 0.41],
    ]);
    expect(result.passages[0]!.text).toContain('الصبر مفتاح الفرج');
  });

  it('reports a failing search as search_unavailable (502)', async () => {
    fake.failSearch = true;
    const retrieval = new RetrievalService(engine, silentLogger);
    await expect(retrieval.retrieve(db.orm.em.fork(), { q: 'الصبر', limit: 8, maxChars: 700 }, 20)).rejects.toMatchObject({
      code: 'search_unavailable',
      status: 502,
    });
  });

  it('is healthy when the server says available', async () => {
    expect(await engine.health()).toEqual({ up: true, detail: 'meilisearch available' });
  });
});
