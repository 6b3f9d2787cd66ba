import { describe, expect, it } from 'vitest';
import { retrievalQuery } from '../../../../subgraphs/library/chat/grounding.js';

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
