import { describe, expect, it } from 'vitest';
import { retrievalQuery, toWholeSentences } from '../../../../subgraphs/library/chat/grounding.js';
import { pagePassage } from '../../../support/library-answers.js';

describe('retrievalQuery', () => {
  it('is the last user turn when it has enough terms', () => {
    expect(
      retrievalQuery([
        { role: 'user', content: 'ما فضل الصبر' },
        { role: 'assistant', content: 'الصبر مفتاح الفرج [1]' },
        { role: 'user', content: 'متى دخل المأمون بغداد' },
      ]),
    ).toBe('متى دخل المأمون بغداد');
  });

  it('takes earlier user turns, most recent first, as context for a short follow-up, never assistant turns', () => {
    expect(
      retrievalQuery([
        { role: 'system', content: 'أجب باختصار' },
        { role: 'user', content: 'الصبر' },
        { role: 'user', content: 'والمأمون؟' },
        { role: 'assistant', content: 'دخل المأمون بغداد [1]' },
        { role: 'user', content: 'وماذا لبس؟' },
      ]),
    ).toBe('الصبر والمأمون؟ وماذا لبس؟');
  });

  it('stays within retrieval’s 500 characters', () => {
    const query = retrievalQuery([
      { role: 'user', content: 'بغداد '.repeat(100) },
      { role: 'user', content: 'كلمة '.repeat(120) },
    ]);
    expect(query.length).toBeLessThanOrEqual(500);
    expect(query.startsWith('كلمة')).toBe(true);
  });
});

describe('toWholeSentences', () => {
  const page = 'باب الصبر. قال الحسن: الصبر كنز من كنوز الجنة. وقال غيره: الصبر مفتاح الفرج. ثم ذكر الشكر.';
  const passage = (start: number, end: number, pageText: string | null = page) => pagePassage(page, start, end - start, { pageText });

  it('grows a passage cut mid-sentence to the sentence edges of its page', () => {
    const grown = toWholeSentences(passage(page.indexOf('الصبر كنز'), page.indexOf('الفرج')));
    expect(grown.text).toBe('قال الحسن: الصبر كنز من كنوز الجنة. وقال غيره: الصبر مفتاح الفرج.');
    expect(page.slice(grown.start, grown.start + grown.length)).toBe(grown.text);
  });

  it('leaves a passage alone when its page text is not at hand', () => {
    const cut = passage(page.indexOf('الصبر كنز'), page.indexOf('الفرج'), null);
    expect(toWholeSentences(cut)).toBe(cut);
  });
});
