import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../../../subgraphs/library/analysis/arabic.js';
import { extractAnswer, sentencesOf } from '../../../../subgraphs/library/chat/extractive-answerer.js';
import { termMatches, type Grounding } from '../../../../subgraphs/library/chat/grounding.js';
import type { RetrievedPassage } from '../../../../subgraphs/library/search/retrieval.service.js';

function passage(id: string, text: string): RetrievedPassage {
  return {
    id,
    bookId: 'b',
    book: 'كتاب',
    category: '',
    authors: [],
    part: '',
    page: 1,
    score: 1,
    start: 0,
    length: text.length,
    pageChars: text.length,
    text,
    pageText: null,
  };
}

function grounding(query: string, texts: string[]): Grounding {
  const terms = [...new Set(analyzeQuery(query))];
  return {
    query,
    terms,
    hits: texts.length,
    sources: texts.map((text, index) => ({ ref: index + 1, passage: passage(`b-${index + 1}`, text) })),
    matches: texts.map((text) => termMatches(text, new Set(terms))),
  };
}

describe('sentencesOf', () => {
  it('splits at sentence ends and line breaks, and long sentences at their commas', () => {
    expect(sentencesOf('قال الحسن: الصبر كنز. والشكر نصف الإيمان؟\nباب آخر')).toEqual([
      'قال الحسن: الصبر كنز.',
      'والشكر نصف الإيمان؟',
      'باب آخر',
    ]);
    const long = `${'كلمة '.repeat(70).trim()}، ${'أخرى '.repeat(10).trim()}.`;
    expect(sentencesOf(long)).toHaveLength(2);
  });
});

describe('extractAnswer', () => {
  const texts = [
    'كان الجو باردا. دخل المأمون بغداد سنة أربع ومائتين. ثم نزل الرصافة.',
    'ذكر المأمون في كتاب آخر. ولبس المأمون الخضرة بعد دخوله بغداد.',
  ];

  it('keeps the sentences richest in query terms, in source and text order, each run followed by its marker', () => {
    const answer = extractAnswer(grounding('متى دخل المأمون بغداد', texts));
    expect(answer.finishReason).toBe('stop');
    expect(answer.segments.join('')).toBe('دخل المأمون بغداد سنة أربع ومائتين. [1] ولبس المأمون الخضرة بعد دخوله بغداد. [2]');
  });

  it('leaves out sentences with less than half the terms of the best one', () => {
    const answer = extractAnswer(grounding('متى دخل المأمون بغداد', texts)).segments.join('');
    expect(answer).not.toContain('ذكر المأمون في كتاب آخر');
  });

  it('stops at max_tokens with finish reason length', () => {
    const answer = extractAnswer(grounding('متى دخل المأمون بغداد', texts), 4);
    expect(answer.finishReason).toBe('length');
    expect(answer.segments.join('')).toBe('دخل المأمون بغداد سنة');
  });
});
