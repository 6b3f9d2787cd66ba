import { describe, expect, it } from 'vitest';
import { analyzeQueryWords, analyzeTokens } from '../../../../subgraphs/library/analysis/arabic.js';
import { ROOT_MARK, rootOf } from '../../../../subgraphs/library/analysis/roots.js';

describe('rootOf', () => {
  it('gives the forms of one root the same term, marked apart from light stems', () => {
    for (const word of ['صابرين', 'الصبر', 'صبروا']) expect(rootOf(word)).toBe(`${ROOT_MARK}صبر`);
    for (const word of ['كاتب', 'مكتوب', 'الكتاب']) expect(rootOf(word)).toBe(`${ROOT_MARK}كتب`);
    expect(rootOf('استغفار')).toBe(`${ROOT_MARK}غفر`);
  });
});

describe('analysis with roots', () => {
  it('gives every page word its light stem and its root term', () => {
    expect(analyzeTokens('الصابرين صبروا').map((token) => [token.term, token.root])).toEqual([
      ['صابر', `${ROOT_MARK}صبر`],
      ['صبروا', `${ROOT_MARK}صبر`],
    ]);
  });

  it('leaves out of a question the words that frame it, not of other queries', () => {
    expect(analyzeQueryWords('ما الدليل من القرآن الكريم على فضل الصبر؟').map((word) => word.term)).toEqual(['فضل', 'صبر']);
    expect(analyzeQueryWords('فضائل القرآن بمكة').map((word) => word.term)).toEqual(['فضايل', 'قر', 'بمك']);
  });
});
