import { describe, expect, it } from 'vitest';
import { assessGaps, emptyAnamnesis, mergeAnamnesis } from '../../../subgraphs/research/assistant/anamnesis.js';
import { OfflineAssistant } from '../../../subgraphs/research/assistant/offline-assistant.js';
import { extractFields } from '../../../subgraphs/research/assistant/offline-extraction.js';

/** Issue 22, item 5: the offline assistant reads labelled lines written in Arabic. */
describe('the offline assistant, in Arabic', () => {
  it('reads the four labelled lines المستخدمون، المشكلة، الحل، الربح', () => {
    const message = [
      'تطبيق يربط أصحاب الكلاب بجليسات موثوقات في الحي',
      'المستخدمون: أصحاب الكلاب في المدن',
      'المشكلة: صعوبة إيجاد جليسة موثوقة',
      'الحل: تطبيق يعرض جليسات موثقات بالتقييمات',
      'الربح: عمولة ١٠٪ على كل حجز',
    ].join('\n');
    expect(extractFields(message, false)).toMatchObject({
      targetUsers: 'أصحاب الكلاب في المدن',
      problem: 'صعوبة إيجاد جليسة موثوقة',
      solution: 'تطبيق يعرض جليسات موثقات بالتقييمات',
      monetization: 'عمولة ١٠٪ على كل حجز',
    });
  });

  it.each([
    ['العملاء', 'targetUsers'],
    ['المستخدم', 'targetUsers'],
    ['المستخدمين', 'targetUsers'],
    ['الفئة المستهدفة', 'targetUsers'],
    ['الفئه المستهدفه', 'targetUsers'],
    ['المشكله', 'problem'],
    ['مشكلة', 'problem'],
    ['الحلول', 'solution'],
    ['نموذج الربح', 'monetization'],
    ['الإيرادات', 'monetization'],
    ['الايرادات', 'monetization'],
    ['الفكرة', 'ideaSummary'],
    ['المنصة', 'platform'],
  ])('reads the label %s as %s, with diacritics, tatweel and an Arabic colon spacing alike', (label, field) => {
    expect(extractFields(`${label}: قيمة الحقل`, true)).toMatchObject({ [field]: 'قيمة الحقل' });
    expect(extractFields(`${label.replace('ل', 'ـلـ')} :قيمة الحقل`, true)).toMatchObject({ [field]: 'قيمة الحقل' });
  });

  it('splits Arabic competitor lists on the Arabic comma', () => {
    expect(extractFields('المنافسون: روفر، واغ، كير', true).competitors).toEqual(['روفر', 'واغ', 'كير']);
  });

  it('makes a case ready from Arabic labelled lines alone, and says what it noted', async () => {
    const message = [
      'الفكرة: تطبيق يربط أصحاب الكلاب بجليسات موثوقات في الحي',
      'العملاء: أصحاب الكلاب العاملون',
      'المشكلة: لا يجدون جليسة موثوقة بسرعة',
      'الحلول: حجز جليسة موثقة خلال دقائق',
      'نموذج الربح: اشتراك شهري',
    ].join('\n');
    const anamnesis = mergeAnamnesis(emptyAnamnesis(), extractFields(message, false));
    expect(assessGaps(anamnesis).missingFields).not.toEqual(expect.arrayContaining(['targetUsers', 'problem', 'solution', 'monetization']));
    const turn = await new OfflineAssistant().turn({ anamnesis: emptyAnamnesis(), history: [{ role: 'user', content: message }] });
    expect(turn.reply).toContain('target users, the problem, the solution, monetization');
  });

  it('leaves an unlabelled Arabic line unlabelled', () => {
    expect(extractFields('ملاحظة: هذا نص عادي', true)).toEqual({});
  });
});
