import { afterEach, describe, expect, it } from 'vitest';
import { analysePage } from '../../../../subgraphs/library/import/page-analysis.js';
import { openPageAnalyzer, type PageAnalyzer } from '../../../../subgraphs/library/import/page-analyzer.js';

const TEXTS = ['قال رسول الله صلى الله عليه وسلم: الصبر عند الصدمة الأولى.', 'وَقَالَ أَبُو بَكْرٍ: حَدَّثَنَا عَبْدُ اللَّهِ بْنُ عَبَّاسٍ.', 'في هذا الباب', ''];

describe('page analyzer', () => {
  let analyzer: PageAnalyzer | undefined;
  afterEach(async () => {
    await analyzer?.close();
    analyzer = undefined;
  });

  it('gives, from its worker thread, exactly what analysing in this thread gives', async () => {
    analyzer = openPageAnalyzer({ threads: true, workerAfterPages: 0 });
    const inThread = TEXTS.map(analysePage);
    // Analysed in this thread while the worker starts, then in the worker.
    await expect
      .poll(
        async () => {
          expect(await analyzer!.analyse(TEXTS)).toEqual(inThread);
          return analyzer!.pagesInWorker;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBeGreaterThan(0);
    const fromWorker = await analyzer.analyse(TEXTS);
    expect(fromWorker.map((page) => Buffer.isBuffer(page.tsvector))).toEqual(TEXTS.map(() => true));
    expect(fromWorker).toEqual(inThread);
  });

  it('keeps every page in this thread without threads, and until an import reaches its threshold', async () => {
    analyzer = openPageAnalyzer({ threads: false, workerAfterPages: 0 });
    expect(await analyzer.analyse(TEXTS)).toEqual(TEXTS.map(analysePage));
    expect(analyzer.pagesInWorker).toBe(0);
    await analyzer.close();
    analyzer = openPageAnalyzer({ threads: true, workerAfterPages: 1000 });
    expect(await analyzer.analyse(TEXTS)).toEqual(TEXTS.map(analysePage));
    expect(analyzer.pagesInWorker).toBe(0);
  });

  it('counts a term once per occurrence, stems and roots alike, and the page length in words', () => {
    const page = analysePage('الصبر صبر الصابرين');
    const frequencies = new Map(page.terms.map((term, i) => [term, page.tfs[i]]));
    expect(page.termCount).toBe(3);
    expect(frequencies.get('صبر')).toBeGreaterThanOrEqual(2);
    expect(page.tsvector.readInt32BE(0)).toBe(page.terms.length);
  });
});
