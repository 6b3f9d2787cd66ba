import { describe, expect, it } from 'vitest';
import { ImportFormatError } from '../../../../subgraphs/library/import/import-errors.js';
import { parseJsonl, parsePageLine, type JsonlEvent } from '../../../../subgraphs/library/import/jsonl.js';

// Two lines exactly as `eval_retrieval.py jsonl` writes them (json.dumps, ensure_ascii=False).
const QPC_LINES = [
  '{"book_id": "qpc", "book": "Qur\'anic Passage Collection", "authors": "QQA23", "category": "quran", "part": "1", "page": 1, "text": "بسم الله الرحمن الرحيم. الحمد لله رب العالمين. الرحمن الرحيم. مالك يوم الدين."}',
  '{"book_id": "qpc", "book": "Qur\'anic Passage Collection", "authors": "QQA23", "category": "quran", "part": "1", "page": 2, "text": "إياك نعبد وإياك نستعين. اهدنا الصراط المستقيم."}',
];

interface Line {
  [field: string]: unknown;
}

function line(overrides: Line = {}): string {
  const base: Line = {
    book_id: 'b1',
    book: 'كتاب',
    authors: 'مؤلف',
    category: 'فقه',
    part: 'باب',
    page: 1,
    text: 'نص',
  };
  const record = { ...base, ...overrides };
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return JSON.stringify(record);
}

async function collect(lines: string[]): Promise<JsonlEvent[]> {
  const events: JsonlEvent[] = [];
  for await (const event of parseJsonl(lines)) events.push(event);
  return events;
}

async function errorOf(lines: string[]): Promise<ImportFormatError> {
  const error = await collect(lines).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ImportFormatError);
  return error as ImportFormatError;
}

describe('parseJsonl', () => {
  it('accepts the evaluation script output and gives page ids qpc-<n> as the qrels mapping expects', async () => {
    const events = await collect(QPC_LINES);
    expect(events.map((event) => event.type)).toEqual(['book', 'page', 'page']);
    expect(events[0]).toEqual({
      type: 'book',
      book: { bookId: 'qpc', title: "Qur'anic Passage Collection", authors: 'QQA23', category: 'quran', line: 1 },
    });
    expect(events[2]).toEqual({
      type: 'page',
      page: {
        id: 'qpc-2',
        bookId: 'qpc',
        page: 2,
        part: '1',
        text: 'إياك نعبد وإياك نستعين. اهدنا الصراط المستقيم.',
        html: null,
        line: 2,
      },
    });
  });

  it('announces each book once before its consecutive pages', async () => {
    const events = await collect([line({ book_id: 'a', page: 1 }), line({ book_id: 'a', page: 2 }), line({ book_id: 'b', page: 1 })]);
    expect(events.map((event) => (event.type === 'book' ? `book:${event.book.bookId}` : event.page.id))).toEqual([
      'book:a',
      'a-1',
      'a-2',
      'book:b',
      'b-1',
    ]);
  });

  it('keeps the optional html markup of a page', async () => {
    const events = await collect([line({ html: '<p>نص</p>' })]);
    expect(events[1]?.type === 'page' && events[1].page.html).toBe('<p>نص</p>');
  });

  it('skips blank lines and a byte-order mark but counts them for line numbers', async () => {
    const events = await collect(['\uFEFF' + line({ page: 1 }), '', '   ', line({ page: 2 })]);
    expect(events.flatMap((event) => (event.type === 'page' ? [event.page.line] : []))).toEqual([1, 4]);
  });

  it('accepts CRLF line endings', async () => {
    const events = await collect([line() + '\r']);
    expect(events).toHaveLength(2);
  });
});

describe('parseJsonl validation', () => {
  it('names the line of invalid JSON', async () => {
    const error = await errorOf([line(), '{"book_id": "b1",']);
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/^line 2: invalid JSON/);
  });

  it('rejects a line that is not an object', async () => {
    expect((await errorOf(['[1, 2]'])).message).toContain('expected a JSON object, got array');
  });

  it.each(['book_id', 'book', 'authors', 'category', 'part', 'page', 'text'])('names the missing required field %s', async (field) => {
    const error = await errorOf([line({ [field]: undefined })]);
    expect(error).toMatchObject({ line: 1, field });
    expect(error.message).toBe(`line 1: field "${field}": is required`);
  });

  it('names a field of the wrong type', async () => {
    const error = await errorOf([line(), line({ page: 2, text: 42 })]);
    expect(error).toMatchObject({ line: 2, field: 'text' });
    expect(error.message).toContain('must be a string, got number');
  });

  it.each([0, -3, 1.5, '7'])('rejects page %j as not a positive integer', async (page) => {
    expect(await errorOf([line({ page })])).toMatchObject({ line: 1, field: 'page' });
  });

  it('rejects an empty title and a book id that cannot form a page id', async () => {
    expect(await errorOf([line({ book: '  ' })])).toMatchObject({ field: 'book' });
    expect(await errorOf([line({ book_id: 'كتاب ١' })])).toMatchObject({ field: 'book_id' });
  });

  it('rejects html that is not a string', async () => {
    expect(await errorOf([line({ html: ['<p>'] })])).toMatchObject({ field: 'html' });
  });

  it('rejects a page number repeated within a book', async () => {
    const error = await errorOf([line({ page: 1 }), line({ page: 2 }), line({ page: 1 })]);
    expect(error).toMatchObject({ line: 3, field: 'page' });
  });

  it('rejects a book whose lines are not consecutive', async () => {
    const error = await errorOf([line({ book_id: 'a' }), line({ book_id: 'b' }), line({ book_id: 'a', page: 2 })]);
    expect(error).toMatchObject({ line: 3, field: 'book_id' });
  });

  it('rejects book metadata that changes within a book, naming the field', async () => {
    const error = await errorOf([line({ page: 1 }), line({ page: 2, authors: 'آخر' })]);
    expect(error).toMatchObject({ line: 2, field: 'authors' });
    expect(error.message).toContain('differs from line 1');
  });
});

describe('parsePageLine', () => {
  it('ignores unknown fields', () => {
    expect(parsePageLine(line({ extra: true }), 5)).toMatchObject({ bookId: 'b1', page: 1 });
  });
});
