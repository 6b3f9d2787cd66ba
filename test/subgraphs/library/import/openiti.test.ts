import { describe, expect, it } from 'vitest';
import { ImportFormatError } from '../../../../subgraphs/library/import/import-errors.js';
import {
  parseOpenITI,
  stripInlineMarkup,
  type OpenitiEvent,
  type OpenitiOptions,
  type OpenitiPage,
  type OpenitiPart,
} from '../../../../subgraphs/library/import/openiti.js';

// Header lines copied from 0279Tirmidhi.ShamailMuhammadiyya (OpenITI 0300AH), shortened.
const HEADER = [
  '######OpenITI#',
  '',
  '',
  '#META# 000.BookURI\t:: #0279.MuhammadTirmidhi.ShamailMuhammadiya',
  '#META# 010.AuthorAKA\t:: NODATA',
  '#META# 010.AuthorNAME\t:: محمد بن عيسى بن سورة الترمذي',
  '#META# 020.BookTITLE\t:: الشمائل المحمدية',
  '#META# 021.BookSUBJ\t:: كتب العقائد المسندة :: كتب العقائد والملل',
  '#META# 022.BookVOLS\t:: 2',
  '#META# 049.EdPAGES\t:: NODATA',
  '',
  '#META#Header#End#',
  '',
];

async function collect(lines: Iterable<string>, options?: OpenitiOptions): Promise<OpenitiEvent[]> {
  const events: OpenitiEvent[] = [];
  for await (const event of parseOpenITI(lines, options)) events.push(event);
  return events;
}

async function pagesOf(body: string[], options?: OpenitiOptions): Promise<OpenitiPage[]> {
  const events = await collect([...HEADER, ...body], options);
  return events.flatMap((event) => (event.type === 'page' ? [event.page] : []));
}

async function partsOf(body: string[]): Promise<OpenitiPart[]> {
  const events = await collect([...HEADER, ...body]);
  return events.flatMap((event) => (event.type === 'part' ? [event.part] : []));
}

async function errorOf(lines: string[]): Promise<ImportFormatError> {
  const error = await collect(lines).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ImportFormatError);
  return error as ImportFormatError;
}

describe('parseOpenITI header', () => {
  it('maps title, author, subjects and volumes from #META# lines and ignores NODATA', async () => {
    const [first] = await collect(HEADER);
    expect(first?.type).toBe('book');
    if (first?.type !== 'book') return;
    expect(first.book).toMatchObject({
      title: 'الشمائل المحمدية',
      authors: ['محمد بن عيسى بن سورة الترمذي'],
      category: 'كتب العقائد المسندة',
      subjects: ['كتب العقائد المسندة', 'كتب العقائد والملل'],
      volumes: 2,
      uri: '0279.MuhammadTirmidhi.ShamailMuhammadiya',
    });
    expect(first.book.meta['049.EdPAGES']).toBe('NODATA');
  });

  it('reads "key: value" headers (ALCorpus files) after a byte-order mark', async () => {
    const events = await collect([
      '\uFEFF######OpenITI#',
      '#META# title_transcription: Kitāb fī Sanat al-šams',
      '#META# author_transcription: Thābit ibn Qurra',
      '#META# url: https://example.org/text.xhtml',
      '#META#Header#End#',
    ]);
    expect(events).toEqual([
      {
        type: 'book',
        book: expect.objectContaining({
          title: 'Kitāb fī Sanat al-šams',
          authors: ['Thābit ibn Qurra'],
          category: '',
          volumes: null,
        }),
      },
    ]);
  });

  it('emits the book before any part or page', async () => {
    const events = await collect([...HEADER, '### | باب', '# نص PageV01P001']);
    expect(events.map((event) => event.type)).toEqual(['book', 'part', 'page']);
  });
});

describe('parseOpenITI parts', () => {
  it('derives depth from the number of bars and links each heading to its parent', async () => {
    const parts = await partsOf([
      '### | كتاب الطهارة',
      '### || باب الوضوء',
      '### ||| فصل',
      '### || باب الغسل',
      '### | كتاب الصلاة',
      '# نص PageV01P001',
    ]);
    expect(parts.map(({ index, depth, title, parentIndex }) => ({ index, depth, title, parentIndex }))).toEqual([
      { index: 1, depth: 1, title: 'كتاب الطهارة', parentIndex: null },
      { index: 2, depth: 2, title: 'باب الوضوء', parentIndex: 1 },
      { index: 3, depth: 3, title: 'فصل', parentIndex: 2 },
      { index: 4, depth: 2, title: 'باب الغسل', parentIndex: 1 },
      { index: 5, depth: 1, title: 'كتاب الصلاة', parentIndex: null },
    ]);
  });

  it('assigns each page the heading in force where its text begins', async () => {
    const pages = await pagesOf([
      '### | باب الأول',
      '# نص أول PageV01P001',
      '~~تتمة الباب الأول',
      '### | باب الثاني',
      '# نص ثان PageV01P002',
      '### | باب الثالث',
      '# نص ثالث PageV01P003',
    ]);
    expect(pages.map((page) => [page.part, page.partIndex])).toEqual([
      ['باب الأول', 1],
      ['باب الأول', 1],
      ['باب الثالث', 3],
    ]);
  });

  it('records the page number on which a heading stands', async () => {
    const parts = await partsOf(['# نص PageV01P001', '# PageV01P002', '### | باب', '# نص PageV01P003']);
    expect(parts[0]?.page).toBe(2);
  });

  it('ignores headings without a title and strips |PARATEXT| bars', async () => {
    const parts = await partsOf(['### | ', '### |PARATEXT|', '# نص PageV01P001']);
    expect(parts.map((part) => part.title)).toEqual(['PARATEXT']);
  });

  it('puts the heading title into the page text as its own line', async () => {
    const [page] = await pagesOf(['### | باب الصبر', '# قال الحسن PageV01P001']);
    expect(page?.text).toBe('باب الصبر\nقال الحسن');
  });
});

describe('parseOpenITI pages', () => {
  it('gives text before a marker to that page, including text before the first marker', async () => {
    const pages = await pagesOf(['# بسم الله الرحمن الرحيم', '# الحمد لله PageV01P001', '# صفحة ثانية PageV01P002']);
    expect(pages.map((page) => [page.label, page.text])).toEqual([
      ['V01P001', 'بسم الله الرحمن الرحيم\nالحمد لله'],
      ['V01P002', 'صفحة ثانية'],
    ]);
  });

  it('splits a line at a mid-line marker and continues the paragraph on the next page', async () => {
    const pages = await pagesOf(['# حدثنا سفيان PageV01P017 عن الأعمش', '~~عن إبراهيم PageV01P018']);
    expect(pages.map((page) => page.text)).toEqual(['حدثنا سفيان', 'عن الأعمش عن إبراهيم']);
    expect(pages[0]?.markup).toBe('# حدثنا سفيان PageV01P017');
    expect(pages[1]?.markup).toBe(' عن الأعمش\n~~عن إبراهيم PageV01P018');
  });

  it('joins ~~ continuation lines into their paragraph with a space', async () => {
    const [page] = await pagesOf(['# إن الأوائل قد اختلفوا', '~~في سنة الشمس', '# وذكر بطلميوس PageV01P027']);
    expect(page?.text).toBe('إن الأوائل قد اختلفوا في سنة الشمس\nوذكر بطلميوس');
  });

  it('keeps non-numeric volume labels as strings', async () => {
    const pages = await pagesOf(['# مقدمة PageVMP012', '# متن PageV01P005', '# ملحق PageVM3P003']);
    expect(pages.map(({ volume, volumePage, label }) => ({ volume, volumePage, label }))).toEqual([
      { volume: 'M', volumePage: 12, label: 'VMP012' },
      { volume: '01', volumePage: 5, label: 'V01P005' },
      { volume: 'M3', volumePage: 3, label: 'VM3P003' },
    ]);
  });

  it('numbers pages sequentially so repeated and volume-local labels stay unique', async () => {
    const pages = await pagesOf([
      '# أ PageV01P001',
      '# ب PageV01P002',
      '# ج PageV02P001',
      '# د PageV00P000',
      '# هـ PageV00P000',
      '# و PageV01P052',
      '# ز PageV01P052',
    ]);
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages.map((page) => page.label)).toEqual(['V01P001', 'V01P002', 'V02P001', 'V00P000', 'V00P000', 'V01P052', 'V01P052']);
  });

  it('skips pages without text and does not count them', async () => {
    const pages = await pagesOf(['# PageV00P000', '', '# نص PageV01P001', ' PageV01P002', '# آخر PageV01P003']);
    expect(pages.map((page) => [page.page, page.label])).toEqual([
      [1, 'V01P001'],
      [2, 'V01P003'],
    ]);
  });

  it('strips milestones from the text but keeps them in the markup', async () => {
    const [page] = await pagesOf(['# صلى الله عليه ms01 وسلم PageV01P001 ms02']);
    expect(page?.text).toBe('صلى الله عليه وسلم');
    expect(page?.markup).toContain('ms01');
  });

  it('strips Qur’an tags and poetry separators from the text', async () => {
    const [page] = await pagesOf([
      '# وقال تعالى @QB@ ليس كمثله شيء @QE@ [ الشورى : 11 ]',
      '# ( شهدت بأن وعد الله حق %~% وأن النار مثوى الكافرينا ) PageV01P001',
    ]);
    expect(page?.text).toBe('وقال تعالى ليس كمثله شيء [ الشورى : 11 ]\n( شهدت بأن وعد الله حق وأن النار مثوى الكافرينا )');
  });

  it('emits text after the last marker as a final page without label, in the last volume', async () => {
    const pages = await pagesOf(['# أول PageV02P010', '# تم بحمد الله']);
    expect(pages.at(-1)).toMatchObject({ page: 2, volume: '02', volumePage: null, label: null, text: 'تم بحمد الله' });
  });

  it('emits no final page when only blank lines follow the last marker', async () => {
    const pages = await pagesOf(['# أول PageV01P001', '', '   ']);
    expect(pages).toHaveLength(1);
  });

  it('records the line on which each page starts', async () => {
    const pages = await pagesOf(['# أ PageV01P001', '# ب', '# ج PageV01P002']);
    expect(pages.map((page) => page.line)).toEqual([HEADER.length + 1, HEADER.length + 2]);
  });

  it('closes a page at a paragraph boundary when a book has no markers for maxPageChars', async () => {
    const body = Array.from({ length: 10 }, (_, i) => `# فقرة رقم ${i} من كتاب بلا أرقام صفحات`);
    const pages = await pagesOf(body, { maxPageChars: 100 });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.every((page) => page.label === null && page.text.length < 200)).toBe(true);
    expect(pages.map((page) => page.text).join('\n')).toBe(body.map((line) => line.slice(2)).join('\n'));
  });

  it('yields each page before reading the rest of the input', async () => {
    let read = 0;
    async function* lines(): AsyncGenerator<string> {
      for (const line of [...HEADER, '# أول PageV01P001', '# ثان PageV01P002', '# ثالث PageV01P003']) {
        read += 1;
        yield line;
      }
    }
    for await (const event of parseOpenITI(lines())) {
      if (event.type === 'page') {
        expect(read).toBe(HEADER.length + 1);
        break;
      }
    }
  });
});

describe('parseOpenITI errors', () => {
  it('rejects input without the ######OpenITI# first line, at line 1', async () => {
    const error = await errorOf(['#META# 020.BookTITLE :: كتاب', '#META#Header#End#']);
    expect(error.line).toBe(1);
    expect(error.message).toMatch(/^line 1: .*######OpenITI#/);
  });

  it('rejects empty input at line 1', async () => {
    expect((await errorOf([])).line).toBe(1);
  });

  it('reports the line of a non-#META# line inside the header', async () => {
    const error = await errorOf(['######OpenITI#', '#META# 020.BookTITLE :: كتاب', '# نص قبل نهاية الرأس']);
    expect(error.line).toBe(3);
  });

  it('reports a #META# line without a key/value pair', async () => {
    expect((await errorOf(['######OpenITI#', '#META# لا قيمة'])).line).toBe(2);
  });

  it('reports a header that never ends at the last line read', async () => {
    const error = await errorOf(['######OpenITI#', '#META# 020.BookTITLE :: كتاب', '']);
    expect(error.line).toBe(3);
    expect(error.message).toContain('#META#Header#End#');
  });

  it('reports the line of a malformed page marker', async () => {
    const error = await errorOf([...HEADER, '# نص PageV01P001', '# نص PageV01', '# نص PageV01P003']);
    expect(error.line).toBe(HEADER.length + 2);
    expect(error.message).toContain('page marker');
  });
});

describe('stripInlineMarkup', () => {
  it('leaves words that merely contain ms and digits alone', () => {
    expect(stripInlineMarkup('ms12 forms12 ms3x')).toBe('forms12 ms3x');
  });
});
