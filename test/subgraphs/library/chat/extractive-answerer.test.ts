import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../../../subgraphs/library/analysis/arabic.js';
import { extractAnswer, sentencesOf } from '../../../../subgraphs/library/chat/extractive-answerer.js';
import { termMatches, type Grounding } from '../../../../subgraphs/library/chat/grounding.js';
import type { RetrievedPassage } from '../../../../subgraphs/library/search/retrieval.service.js';
import { pagePassage } from '../../../support/library-answers.js';

/** A passage of `page` starting at `start` (the whole page by default). */
const passage = (id: string, page: string, start?: number, length?: number) => pagePassage(page, start, length, { id });

function grounding(query: string, passages: RetrievedPassage[]): Grounding {
  const terms = [...new Set(analyzeQuery(query))];
  return {
    query,
    terms,
    hits: passages.length,
    sources: passages.map((source, index) => ({ ref: index + 1, passage: source })),
    matches: passages.map((source) => termMatches(source.text, new Set(terms))),
  };
}

const answerOf = (query: string, passages: RetrievedPassage[], maxTokens?: number) => extractAnswer(grounding(query, passages), maxTokens);

describe('sentencesOf', () => {
  it('splits at sentence ends and line breaks, and Qur’an text after each verse number', () => {
    expect(sentencesOf('قال الحسن: الصبر كنز. والشكر نصف الإيمان؟\nباب آخر')).toEqual([
      'قال الحسن: الصبر كنز.',
      'والشكر نصف الإيمان؟',
      'باب آخر',
    ]);
    expect(sentencesOf('ٱلۡحَمۡدُ لِلَّهِ رَبِّ ٱلۡعَٰلَمِينَ ﴿٢﴾ ٱلرَّحۡمَٰنِ ٱلرَّحِيمِ ﴿٣﴾ مَٰلِكِ يَوۡمِ')).toEqual([
      'ٱلۡحَمۡدُ لِلَّهِ رَبِّ ٱلۡعَٰلَمِينَ ﴿٢﴾',
      'ٱلرَّحۡمَٰنِ ٱلرَّحِيمِ ﴿٣﴾',
      'مَٰلِكِ يَوۡمِ',
    ]);
  });
});

describe('extractAnswer', () => {
  const pages = [
    'كان الجو باردا. دخل المأمون بغداد سنة أربع ومائتين. ثم نزل الرصافة.',
    'ذكر المأمون في كتاب آخر. ولبس المأمون الخضرة بعد دخوله بغداد.',
  ];

  it('quotes the sentences richest in query terms from several sources, in source and text order, each run followed by its marker', () => {
    const answer = answerOf(
      'متى دخل المأمون بغداد',
      pages.map((page, i) => passage(`b-${i + 1}`, page)),
    );
    expect(answer.finishReason).toBe('stop');
    expect(answer.segments.join('')).toBe('دخل المأمون بغداد سنة أربع ومائتين. [1] ولبس المأمون الخضرة بعد دخوله بغداد. [2]');
  });

  it('leaves out sentences with less than half the relevance of the best one', () => {
    const answer = answerOf(
      'متى دخل المأمون بغداد',
      pages.map((page, i) => passage(`b-${i + 1}`, page)),
    ).segments.join('');
    expect(answer).not.toContain('ذكر المأمون في كتاب آخر');
  });

  it('quotes whole sentences: one the passage cut short at either edge is left out', () => {
    const page =
      'وقيل إن المأمون دخل بغداد ليلا في موكب عظيم. دخل المأمون بغداد سنة أربع ومائتين. ثم دخل المأمون بغداد مرة أخرى بعد ذلك بأيام.';
    const start = page.indexOf('دخل بغداد ليلا');
    const cut = passage('b-1', page, start, page.indexOf(' ذلك') - start);
    expect(answerOf('دخول المأمون بغداد', [cut]).segments.join('')).toBe('دخل المأمون بغداد سنة أربع ومائتين. [1]');
  });

  it('quotes Qur’an text in whole verses, each ending with its number', () => {
    const surah = 'وَٱلۡعَصۡرِ ﴿١﴾ إِنَّ ٱلۡإِنسَٰنَ لَفِي خُسۡرٍ ﴿٢﴾ إِلَّا ٱلَّذِينَ ءَامَنُواْ وَعَمِلُواْ ٱلصَّٰلِحَٰتِ وَتَوَاصَوۡاْ بِٱلۡحَقِّ وَتَوَاصَوۡاْ بِٱلصَّبۡرِ ﴿٣﴾';
    const answer = answerOf('التواصي بالصبر', [passage('quran-1', surah)]).segments.join('');
    expect(answer).toBe('إِلَّا ٱلَّذِينَ ءَامَنُواْ وَعَمِلُواْ ٱلصَّٰلِحَٰتِ وَتَوَاصَوۡاْ بِٱلۡحَقِّ وَتَوَاصَوۡاْ بِٱلصَّبۡرِ ﴿٣﴾ [1]');
  });

  it('cites only the sources it quotes', () => {
    const sources = [
      passage('b-1', 'الصبر مفتاح الفرج.'),
      passage('b-2', 'وكان الناس في السوق.'),
      passage('b-3', 'والصبر على البلاء من أعظم الأعمال.'),
      passage('b-4', 'باب في ذكر الأسواق.'),
    ];
    const answer = answerOf('فضل الصبر', sources).segments.join('');
    expect([...answer.matchAll(/\[(\d+)\]/g)].map((match) => match[1])).toEqual(['1', '3']);
  });

  it('stops at max_tokens with finish reason length', () => {
    const answer = answerOf(
      'متى دخل المأمون بغداد',
      pages.map((page, i) => passage(`b-${i + 1}`, page)),
      4,
    );
    expect(answer.finishReason).toBe('length');
    expect(answer.segments.join('')).toBe('دخل المأمون بغداد سنة');
  });
});
