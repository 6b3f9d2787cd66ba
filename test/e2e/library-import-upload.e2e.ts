import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { System } from '../../server/system.js';
import { startDistributed, type DistributedStack } from '../support/distributed.js';
import { FIXTURE } from '../support/library-content.js';
import { ADMIN_TOKEN, json } from '../support/library-keys.js';

/**
 * `POST /admin/import` streams its body to the library's `libraryImportFile` upload,
 * also when the library subgraph is another process (`ROLE=subgraph:library`).
 */

let stack: DistributedStack;
let gateway: System;

beforeAll(async () => {
  stack = await startDistributed({ ADMIN_TOKEN });
  gateway = stack.gateway;
});

afterAll(async () => {
  await stack?.stop();
});

/** A request body that arrives in pieces, with pauses, and no Content-Length. */
function trickle(content: Buffer, pieces: number): ReadableStream<Uint8Array> {
  const size = Math.ceil(content.length / pieces);
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= content.length) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.enqueue(content.subarray(offset, offset + size));
      offset += size;
    },
  });
}

const upload = (body: RequestInit['body'] | ReadableStream<Uint8Array>, type: string, token = ADMIN_TOKEN) =>
  fetch(`${gateway.url}/admin/import`, {
    method: 'POST',
    headers: { 'content-type': type, 'x-admin-token': token },
    body: body as RequestInit['body'],
    duplex: 'half',
  } as RequestInit);

describe('admin import through a gateway and a remote library subgraph', () => {
  it('imports a file whose body arrives in pieces without a length', async () => {
    const response = await upload(trickle(readFileSync(FIXTURE.pages), 7), 'application/x-ndjson');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { book_id: string; pages: number; books: Array<{ book_id: string }> };
    expect(body).toMatchObject({ book_id: 'adab-sabr', parts: 6, pages: 8 });
    expect(body.books.map((book) => book.book_id)).toEqual(['adab-sabr', 'geo-masalik', 'quran-mini']);
    const issued = await fetch(
      `${gateway.url}/admin/keys`,
      json({ email: 'upload@example.org', plan: 'unlimited' }, { 'x-admin-token': ADMIN_TOKEN }),
    );
    const { key } = (await issued.json()) as { key: string };
    const page = await fetch(`${gateway.url}/v1/page?id=geo-masalik-1`, { headers: { authorization: `Bearer ${key}` } });
    expect(await page.json()).toMatchObject({ found: true, id: 'geo-masalik-1', book_id: 'geo-masalik' });
  });

  it('answers 422 naming the bad line of a streamed file and stores nothing of its book', async () => {
    const response = await upload(readFileSync(FIXTURE.badPage), 'application/x-ndjson');
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: Array<{ loc: unknown[]; msg: string }> };
    expect(detail[0]?.msg).toMatch(/line \d+/);
  });

  it('refuses a wrong admin token before reading the file', async () => {
    const response = await upload(readFileSync(FIXTURE.openiti), 'text/markdown', 'wrong-token-0123456789');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Not authenticated' });
  });

  it('answers 422 for a content type that is no import format', async () => {
    const response = await upload('hello', 'image/png');
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]?.loc).toEqual(['header', 'content-type']);
  });
});
