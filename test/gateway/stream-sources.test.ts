import { describe, expect, it } from 'vitest';
import { streamsUrlFor } from '../../gateway/stream-sources.js';

describe('streamsUrlFor', () => {
  it('puts /streams beside the subgraph’s GraphQL path', () => {
    expect(streamsUrlFor('http://127.0.0.1:4001/graphql')).toBe('http://127.0.0.1:4001/streams');
    expect(streamsUrlFor('https://library.internal/api/graphql/')).toBe('https://library.internal/api/streams');
    expect(streamsUrlFor('http://library:4001')).toBe('http://library:4001/streams');
  });
});
