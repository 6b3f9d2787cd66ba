import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DocumentCache } from '../../../subgraphs/shared/document-cache.js';

const schema = buildSchema('type Query { hello: String }');

describe('subgraph document cache', () => {
  it('parses and validates an operation once and returns the same document after', () => {
    const cache = new DocumentCache(schema);
    const first = cache.document('{ hello }');
    expect(Array.isArray(first)).toBe(false);
    expect(cache.document('{ hello }')).toBe(first);
  });

  it('returns syntax and validation errors without caching them', () => {
    const cache = new DocumentCache(schema);
    const syntax = cache.document('{ hello');
    expect(Array.isArray(syntax) && syntax[0]?.message).toMatch(/Syntax Error/);
    const invalid = cache.document('{ goodbye }');
    expect(Array.isArray(invalid) && invalid[0]?.message).toMatch(/Cannot query field "goodbye"/);
  });

  it('drops the oldest document when full', () => {
    const cache = new DocumentCache(schema, 2);
    const first = cache.document('{ hello }');
    cache.document('{ a: hello }');
    cache.document('{ b: hello }');
    expect(cache.document('{ hello }')).not.toBe(first);
  });
});
