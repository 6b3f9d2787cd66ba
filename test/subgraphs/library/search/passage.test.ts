import { describe, expect, it } from 'vitest';
import { analyzeQuery, analyzeTokens } from '../../../../subgraphs/library/analysis/arabic.js';
import { countMatches, cutPassage } from '../../../../subgraphs/library/search/passage.js';

// A hadith opening with full vowels, as vocalized editions print it.
const VOCALIZED = 'قَالَ رَسُولُ ٱللَّهِ صَلَّى ٱللَّهُ عَلَيْهِ وَسَلَّمَ: إِنَّمَا ٱلْأَعْمَالُ بِٱلنِّيَّاتِ. وَإِنَّمَا لِكُلِّ ٱمْرِئٍ مَا نَوَىٰ.';

const FILLER = 'وكان الناس يجتمعون في السوق كل يوم ويتحدثون في أمور شتى. ';

/** Deterministic pseudo-random numbers (mulberry32) so the property loop is reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'قَالَ',
  'ٱلْكِتَابِ',
  'والكتاب',
  'الصبر',
  'وَٱلصَّبْرِ',
  'إلى',
  'في',
  'ٱللَّهِ',
  'الرحمن',
  'حدثنا',
  'سفيان',
  'مريم',
  'القرآن',
  'ٱلْقُرْءَانَ',
  'الحمــد',
  '١٢٣',
  'x',
  '«قال',
  'وسلم»',
  '(عن',
  'أبيه)',
  'مُسْتَقِيمٌ',
  'الاستغفار',
];
const SEPARATORS = [' ', ' ', ' ', ' ', '، ', '. ', '؟ ', '\n', ' \n', '  ', '! ', '.» '];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function generatedPage(next: () => number): string {
  const words = Math.floor(next() * 80);
  let text = next() < 0.2 ? ' \n' : '';
  for (let i = 0; i < words; i++) text += pick(next, WORDS) + pick(next, SEPARATORS);
  return text;
}

describe('cutPassage', () => {
  it('always returns an exact slice of the page within maxChars (random pages, queries and sizes)', () => {
    const next = random(20240611);
    for (let round = 0; round < 2000; round++) {
      const page = generatedPage(next);
      const terms = analyzeQuery(`${pick(next, WORDS)} ${pick(next, WORDS)}`);
      const maxChars = 1 + Math.floor(next() * 250);
      const passage = cutPassage(page, terms, maxChars);
      expect(page.slice(passage.start, passage.start + passage.length)).toBe(passage.text);
      expect(passage.length).toBeLessThanOrEqual(maxChars);
      expect(passage.start).toBeGreaterThanOrEqual(0);
      expect(passage.start + passage.length).toBeLessThanOrEqual(page.length);
      if (passage.length > 0) expect(passage.text).toBe(passage.text.trim());
      const fitting = analyzeTokens(page).filter((t) => terms.includes(t.term) && t.end - t.start <= maxChars);
      if (fitting.length > 0) expect(passage.matches).toBeGreaterThan(0);
    }
  });

  it('returns the whole page, trimmed, when it fits', () => {
    const page = '\n  بسم الله الرحمن الرحيم.  \n';
    expect(cutPassage(page, analyzeQuery('الرحيم'), 700)).toEqual({
      start: 3,
      length: 23,
      text: 'بسم الله الرحمن الرحيم.',
      matches: 1,
    });
  });

  it('centres on the densest cluster rather than the first match', () => {
    const page = `ذكر الصبر مرة. ${FILLER.repeat(6)}باب فضل الصبر على البلاء وأجر الصابرين على البلاء. ${FILLER.repeat(6)}`;
    const passage = cutPassage(page, analyzeQuery('الصبر على البلاء'), 120);
    expect(passage.text).toContain('باب فضل الصبر على البلاء');
    expect(passage.matches).toBeGreaterThanOrEqual(3);
  });

  it('finds vocalized Uthmani text with an unvocalized query', () => {
    const passage = cutPassage(VOCALIZED, analyzeQuery('الأعمال بالنيات'), 60);
    expect(passage.text).toContain('ٱلْأَعْمَالُ بِٱلنِّيَّاتِ');
    expect(passage.matches).toBe(2);
  });

  it('prefers a sentence end as the closing edge', () => {
    const page = `${FILLER.repeat(3)}قال الحسن: الصبر كنز من كنوز الجنة. ${FILLER.repeat(3)}`;
    const passage = cutPassage(page, analyzeQuery('كنوز الجنة'), 150);
    expect(passage.text).toMatch(/[.؟!]$/);
  });

  it('prefers a sentence start as the opening edge', () => {
    const page = `${FILLER.repeat(3)}قال الحسن: الصبر كنز من كنوز الجنة. ${FILLER.repeat(3)}`;
    const passage = cutPassage(page, analyzeQuery('كنوز الجنة'), 150);
    const before = page.slice(0, passage.start).trimEnd();
    expect(before === '' || /[.؟!\n]$/.test(before)).toBe(true);
  });

  it('treats line breaks as sentence edges', () => {
    const page = `${'سطر من الشعر القديم بلا نقطة\n'.repeat(5)}وفيه ذكر الاستغفار في آخره\n${'سطر آخر بلا نقطة\n'.repeat(5)}`;
    const passage = cutPassage(page, analyzeQuery('الاستغفار'), 70);
    expect(passage.text).toContain('وفيه ذكر الاستغفار في آخره');
    expect(page.charAt(passage.start - 1)).toBe('\n');
  });

  it('cuts inside a word when maxChars is smaller than the matching word, without splitting its marks', () => {
    const passage = cutPassage(VOCALIZED, analyzeQuery('الأعمال'), 5);
    expect(passage.length).toBeGreaterThan(0);
    expect(passage.length).toBeLessThanOrEqual(5);
    expect(passage.text).toBe(VOCALIZED.slice(passage.start, passage.start + passage.length));
    expect(VOCALIZED.slice(passage.start).startsWith('ٱلْأَعْمَالُ')).toBe(true);
    expect(/\p{M}/u.test(VOCALIZED.charAt(passage.start + passage.length))).toBe(false);
    expect(passage.matches).toBe(1);
  });

  it('returns the page opening, snapped to a word end, when nothing matches', () => {
    const passage = cutPassage(VOCALIZED, analyzeQuery('الزكاة'), 30);
    expect(passage.start).toBe(0);
    expect(passage.matches).toBe(0);
    expect(passage.length).toBeLessThanOrEqual(30);
    expect(/\s/.test(VOCALIZED.charAt(passage.length))).toBe(true);
  });

  it('returns the page opening for an empty query and an empty passage for an empty page', () => {
    expect(cutPassage('الحمد لله رب العالمين', [], 10)).toMatchObject({ start: 0, text: 'الحمد لله' });
    expect(cutPassage('', ['صبر'], 10)).toEqual({ start: 0, length: 0, text: '', matches: 0 });
  });

  it('rejects a maxChars that is not a positive integer', () => {
    expect(() => cutPassage('نص', ['نص'], 0)).toThrow(RangeError);
    expect(() => cutPassage('نص', ['نص'], 2.5)).toThrow(RangeError);
  });
});

describe('countMatches', () => {
  it('counts page tokens whose stem is a query term, across clitics and vowels', () => {
    expect(countMatches('الكتاب وَٱلْكِتَابُ للكتاب كتب', analyzeQuery('كتاب'))).toBe(3);
  });

  it('never counts stop words', () => {
    expect(countMatches('ذهب إلى السوق ثم إلى البيت', analyzeQuery('إلى'))).toBe(0);
  });
});
