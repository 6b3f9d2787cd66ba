import { describe, expect, it } from 'vitest';
import {
  analyze,
  analyzeQuery,
  analyzeTokens,
  isStopWord,
  lightStem,
  normalizeArabic,
  normalizeWithOffsets,
  STOP_WORDS,
  tokenize,
} from '../../../../subgraphs/library/analysis/arabic.js';

// Al-Fatiha 1:1 and 1:5 in Uthmani script (Tanzil), with their plain spellings from the QQA collection.
const BASMALA_UTHMANI = 'بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ';
const BASMALA_PLAIN = 'بسم الله الرحمن الرحيم';
const FATIHA_5_UTHMANI = 'إِيَّاكَ نَعْبُدُ وَإِيَّاكَ نَسْتَعِينُ';
const FATIHA_5_PLAIN = 'إياك نعبد وإياك نستعين.';

describe('normalizeArabic', () => {
  it('strips harakat, tanween, shadda and sukun', () => {
    expect(normalizeArabic('كَتَبَ كِتَابًا مُّبِينٌ')).toBe('كتب كتابا مبين');
  });

  it('drops the superscript alef U+0670 in the words plain spelling writes without alef', () => {
    expect(normalizeArabic('ٱلرَّحْمَٰنِ')).toBe('الرحمن');
    expect(normalizeArabic('ذَٰلِكَ')).toBe('ذلك');
    expect(normalizeArabic('هَٰذَا كَذَٰلِكَ لِلرَّحۡمَٰنِ إِلَٰهَ لَٰكِنَّ أُوْلَٰٓئِكَ')).toBe('هذا كذلك للرحمن اله لكن اوليك');
  });

  it('writes the superscript alef as the alef plain spelling writes (Uthmani ٱلۡعَٰلَمِينَ = العالمين)', () => {
    const pairs: Array<[string, string]> = [
      ['ٱلۡعَٰلَمِينَ', 'العالمين'],
      ['ٱلسَّمَٰوَٰتِ', 'السماوات'],
      ['ٱلۡكِتَٰبَ', 'الكتاب'],
      ['ٱلۡقِيَٰمَةِ', 'القيامة'],
      ['ٱلصَّلَوٰةَ', 'الصلاة'],
      ['ٱلۡحَيَوٰةُ', 'الحياة'],
      ['مُوسَىٰ', 'موسى'],
      ['إِبۡرَٰهِـۧمَ', 'إبراهيم'],
    ];
    for (const [uthmani, plain] of pairs) expect(normalizeArabic(uthmani)).toBe(normalizeArabic(plain));
  });

  it('keeps word spans covering the superscript alef and its marks', () => {
    const text = 'رَبِّ ٱلۡعَٰلَمِينَ';
    expect(tokenize(text).map((token) => text.slice(token.start, token.end))).toEqual(['رَبِّ', 'ٱلۡعَٰلَمِينَ']);
  });

  it('strips Quranic annotation marks (U+06D6–U+06ED) such as small high signs and small waw', () => {
    expect(normalizeArabic('إِنَّهُۥ')).toBe('انه');
    expect(normalizeArabic('لَا رَيْبَ ۛ فِيهِ ۛ')).toBe('لا ريب  فيه ');
    expect(normalizeArabic('ءَامَنُوا۟')).toBe('امنوا');
  });

  it('removes tatweel', () => {
    expect(normalizeArabic('الحمــــد')).toBe('الحمد');
  });

  it('folds alef wasla, hamza-alef forms and madda to bare alef', () => {
    expect(normalizeArabic('ٱلْحَمْدُ')).toBe('الحمد');
    expect(normalizeArabic('أحمد إبراهيم آمن')).toBe('احمد ابراهيم امن');
  });

  it('writes Uthmani ءا and plain آ the same way', () => {
    expect(normalizeArabic('ٱلْقُرْءَانُ')).toBe(normalizeArabic('القرآن'));
    expect(normalizeArabic('ءَامَنُوا۟')).toBe(normalizeArabic('آمنوا'));
  });

  it('folds alef maqsura, ta marbuta, hamza seats and Persian letters', () => {
    expect(normalizeArabic('موسى مدرسة مؤمن شئ')).toBe('موسي مدرسه مومن شي');
    expect(normalizeArabic('کتاب یوم')).toBe('كتاب يوم');
  });

  it('turns Arabic-Indic and Persian digits into ASCII digits and lowercases Latin', () => {
    expect(normalizeArabic('سنة ١٤٠٨ و ۱۹۸۷ ISBN')).toBe('سنه 1408 و 1987 isbn');
  });
});

describe('normalizeWithOffsets', () => {
  it('maps every normalized character back to its index in the original text', () => {
    const original = 'قَالَ ٱلنَّبِيُّ';
    const { normalized, map } = normalizeWithOffsets(original);
    expect(normalized).toBe('قال النبي');
    expect(map).toHaveLength(normalized.length);
    for (let i = 0; i < normalized.length; i++) {
      expect(normalizeArabic(original.charAt(map[i] ?? -1))).toBe(normalized.charAt(i));
    }
  });

  it('points a merged ءا at the hamza so slices from it include the whole sequence', () => {
    const original = 'ءَامَنَ';
    const { normalized, map } = normalizeWithOffsets(original);
    expect(normalized).toBe('امن');
    expect(map[0]).toBe(0);
  });

  it('keeps offsets increasing through tatweel and marks', () => {
    const { map } = normalizeWithOffsets('الحمــدُ لِلَّهِ');
    expect([...map].sort((a, b) => a - b)).toEqual(map);
  });
});

describe('tokenize', () => {
  it('returns normalized words with spans in the original text, vowels included', () => {
    const text = 'قَالَ: ٱلرَّحْمَٰنُ';
    const tokens = tokenize(text);
    expect(tokens.map((token) => token.word)).toEqual(['قال', 'الرحمن']);
    expect(tokens.map((token) => text.slice(token.start, token.end))).toEqual(['قَالَ', 'ٱلرَّحْمَٰنُ']);
  });

  it('splits on Arabic punctuation and keeps digits as words', () => {
    expect(tokenize('حدثنا، قال؛ سنة ٢٧٩؟').map((token) => token.word)).toEqual(['حدثنا', 'قال', 'سنه', '279']);
  });
});

describe('stop words', () => {
  it('contains question words and function words in normalized form', () => {
    for (const word of ['ما', 'ماذا', 'متي', 'اين', 'كيف', 'لماذا', 'هل', 'كم', 'في', 'علي', 'الي', 'التي', 'الذي']) {
      expect(STOP_WORDS.has(word)).toBe(true);
    }
  });

  it('recognises إلى after normalization and with a leading conjunction', () => {
    expect(isStopWord(normalizeArabic('إلى'))).toBe(true);
    expect(isStopWord(normalizeArabic('وإلى'))).toBe(true);
    expect(isStopWord('كتاب')).toBe(false);
  });
});

describe('lightStem', () => {
  it('removes the definite article and its clitic forms', () => {
    for (const word of ['الكتاب', 'والكتاب', 'بالكتاب', 'كالكتاب', 'فالكتاب', 'للكتاب']) {
      expect(lightStem(word)).toBe('كتاب');
    }
  });

  it('removes plural and pronoun suffixes', () => {
    expect(lightStem('المسلمون')).toBe('مسلم');
    expect(lightStem('المسلمين')).toBe('مسلم');
    expect(lightStem('مسلمات')).toBe('مسلم');
    expect(lightStem('كتابها')).toBe('كتاب');
  });

  it('removes a leading و only when three letters remain', () => {
    expect(lightStem('وقال')).toBe('قال');
    expect(lightStem('ولد')).toBe('ولد');
  });

  it('keeps short words intact', () => {
    expect(lightStem('ال')).toBe('ال');
    expect(lightStem('اب')).toBe('اب');
    expect(lightStem('يد')).toBe('يد');
  });

  it('keeps الله recognisable in all its clitic forms instead of reducing it to له', () => {
    for (const word of ['الله', 'والله', 'بالله', 'تالله', 'لله', 'ولله', 'فلله', 'اللهم']) {
      expect(lightStem(word)).toBe('الله');
    }
  });
});

describe('analyze', () => {
  it('gives the same terms for the Uthmani basmala and its plain spelling', () => {
    expect(analyze(BASMALA_UTHMANI)).toEqual(['بسم', 'الله', 'رحمن', 'رحيم']);
    expect(analyze(BASMALA_UTHMANI)).toEqual(analyze(BASMALA_PLAIN));
  });

  it('gives the same terms for Uthmani and plain al-Fatiha 1:5', () => {
    expect(analyze(FATIHA_5_UTHMANI)).toEqual(analyze(FATIHA_5_PLAIN));
  });

  it('drops question words and function words from a question', () => {
    expect(analyzeQuery('من هم قوم شعيب؟')).toEqual(['قوم', 'شعيب']);
    expect(analyzeQuery('ما هو الجبل الذي استقرت عليه سفينة نوح؟')).toEqual(['جبل', 'استقرت', 'سفين', 'نوح']);
  });

  it('analyses queries exactly like pages', () => {
    const text = 'وَقَالَ مُوسَىٰ لِقَوْمِهِۦٓ إِلَى ٱلْجَبَلِ';
    expect(analyzeQuery(text)).toEqual(analyze(text));
    expect(analyzeQuery('وقال موسى لقومه إلى الجبل')).toEqual(analyze(text));
  });

  it('drops one-letter words', () => {
    expect(analyze('و ب ك')).toEqual([]);
  });
});

describe('analyzeTokens', () => {
  it('reports the original span of each kept term', () => {
    const text = 'ذَهَبَ إِلَى ٱلسُّوقِ';
    const tokens = analyzeTokens(text);
    expect(tokens.map((token) => token.term)).toEqual(['ذهب', 'سوق']);
    expect(text.slice(tokens[1]?.start, tokens[1]?.end)).toBe('ٱلسُّوقِ');
  });
});
