import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLibraryStack } from '../support/library-stack.js';
import type { TestStack } from '../support/stack.js';

/**
 * Every typed query parameter of the library's `/v1` reads answers a value of the wrong
 * type as its OpenAPI says: refused (422 `invalid_parameter` naming it), or — where the
 * seed publishes no 422 for the list (`/v1/books`, `/v1/authors`, `/v1/toc`, `/v1/search`,
 * `/v1/usage`) — taken as absent, which the OpenAPI documents as `x-lenient`.
 */

let stack: TestStack;
let key: string;

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: { type?: string };
  'x-lenient'?: boolean;
}
let document: { paths: Record<string, { get?: { parameters?: Parameter[]; responses: Record<string, unknown> } }> };

beforeAll(async () => {
  ({ stack, key } = await startLibraryStack(['pages']));
  document = (await (await stack.fetch('/openapi.json')).json()) as typeof document;
});
afterAll(async () => {
  await stack?.stop();
});

/** Values for the required parameters of each read, so only the parameter under test is wrong. */
const REQUIRED: Readonly<Record<string, Record<string, string>>> = {
  '/v1/retrieve': { q: 'الصبر' },
  '/v1/search': { q: 'الصبر' },
  '/v1/page': { id: 'adab-sabr-1' },
  '/v1/book': { id: 'adab' },
  '/v1/toc': { book: 'adab' },
};

const get = (path: string, query: Record<string, string>) =>
  stack.fetch(`${path}?${new URLSearchParams(query).toString()}`, { headers: { authorization: `Bearer ${key}` } });

function typedParameters(): Array<[string, Parameter]> {
  return Object.entries(document.paths)
    .filter(([path, item]) => path.startsWith('/v1/') && item.get?.parameters)
    .flatMap(([path, item]) =>
      item
        .get!.parameters!.filter((parameter) => parameter.in === 'query' && ['integer', 'boolean'].includes(parameter.schema.type ?? ''))
        .map((parameter) => [path, parameter] as [string, Parameter]),
    );
}

describe('the OpenAPI of /v1/books and /v1/authors', () => {
  it.each([
    ['/v1/books', 'limit'],
    ['/v1/books', 'offset'],
    ['/v1/books', 'with_parts'],
    ['/v1/authors', 'limit'],
  ])('documents %s %s as lenient (x-lenient and its description)', (path, name) => {
    const parameter = document.paths[path]?.get?.parameters?.find((entry) => entry.name === name);
    expect(parameter).toMatchObject({ 'x-lenient': true, description: expect.stringContaining('Lenient: ') });
  });

  it('documents a typed parameter as lenient only where a wrong value is not refused', () => {
    const retrieveLimit = document.paths['/v1/retrieve']?.get?.parameters?.find((entry) => entry.name === 'limit');
    expect(retrieveLimit).toBeDefined();
    expect(retrieveLimit).not.toHaveProperty('x-lenient');
  });
});

describe('a typed query parameter sent a value of the wrong type', () => {
  it('covers every typed parameter of every /v1 read', () => {
    const paths = new Set(typedParameters().map(([path]) => path));
    expect([...paths].sort()).toEqual(expect.arrayContaining(['/v1/authors', '/v1/books', '/v1/retrieve', '/v1/search', '/v1/toc']));
  });

  it.each(['abc', 'NaN', '1e309'])('%s answers as the OpenAPI documents it, for every typed parameter', async (value) => {
    for (const [path, parameter] of typedParameters()) {
      const required = Object.fromEntries(
        (document.paths[path]!.get!.parameters ?? [])
          .filter((entry) => entry.required && entry.in === 'query')
          .map((entry) => [entry.name, '']),
      );
      const base = { ...required, ...REQUIRED[path] };
      for (const [name, sample] of Object.entries(base)) expect(sample, `a value for ${path} ${name}`).not.toBe('');
      const response = await get(path, { ...base, [parameter.name]: value });
      const body = (await response.json()) as { error?: { code: string; param: string } };
      const where = `${path}?${parameter.name}=${value}`;
      if (parameter['x-lenient']) {
        expect(response.status, where).toBe(200);
        const plain = await get(path, base);
        if (path === '/v1/books' || path === '/v1/authors') expect(body, where).toEqual(await plain.json());
      } else {
        expect(response.status, where).toBe(422);
        expect(document.paths[path]!.get!.responses, where).toHaveProperty('422');
        expect(body.error, where).toMatchObject({ code: 'invalid_parameter', param: parameter.name });
      }
    }
  });
});
