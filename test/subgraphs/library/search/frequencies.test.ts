import { describe, expect, it } from 'vitest';
import { parseFrequencies } from '../../../../subgraphs/library/search/postgres-engine.js';

describe('parseFrequencies', () => {
  it('counts the positions of each lexeme of a tsvector text, weights and escapes included', () => {
    expect(parseFrequencies("'الله':1A,2A,3A 'بكر':5A 'a''b':1A 'c\\\\d':2A,3A")).toEqual(
      new Map([
        ['الله', 3],
        ['بكر', 1],
        ["a'b", 1],
        ['c\\d', 2],
      ]),
    );
  });

  it('reads an empty vector as no lexemes', () => {
    expect(parseFrequencies('')).toEqual(new Map());
  });
});
