import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { BookEntity } from '../catalog/book.entity.js';
import type { ImportedBook, LibraryImportService } from './library-import.service.js';
import type { LibraryEvent } from './library-events.js';

/** What `quran-json` ships in `dist/quran.json`: 114 surahs with their verses in Uthmani script. */
interface Surah {
  readonly id: number;
  readonly name: string;
  readonly transliteration: string;
  readonly verses: ReadonlyArray<{ readonly id: number; readonly text: string }>;
}

export const QURAN_BOOK_ID = 'quran';

/** A page holds whole verses of one surah, up to about this many characters (vowel marks included). */
const PAGE_CHARS = 1500;

const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';

function verseNumber(n: number): string {
  return `﴿${String(n).replace(/\d/g, (digit) => ARABIC_DIGITS.charAt(Number(digit)))}﴾`;
}

async function loadSurahs(): Promise<Surah[]> {
  const path = createRequire(import.meta.url).resolve('quran-json/dist/quran.json');
  return JSON.parse(await readFile(path, 'utf8')) as Surah[];
}

/**
 * The Qur'an as one book: surahs are its parts, and each surah is cut into pages of whole verses,
 * every verse followed by its number (﴿١﴾), so a passage can be cited by surah and verse.
 */
export async function* quranEvents(): AsyncGenerator<LibraryEvent> {
  const surahs = await loadSurahs();
  yield {
    type: 'book',
    line: null,
    book: {
      id: QURAN_BOOK_ID,
      title: 'القرآن الكريم',
      authors: [],
      category: 'القرآن الكريم',
      sourceFormat: 'quran-json',
      sourceUri: 'npm:quran-json@3.1.2',
      sourceMeta: { package: 'quran-json', version: '3.1.2', license: 'CC-BY-4.0', script: 'uthmani' },
      volumes: null,
    },
  };
  let page = 0;
  for (const surah of surahs) {
    const title = `سورة ${surah.name}`;
    yield { type: 'part', line: null, part: { index: surah.id, depth: 1, title, parentIndex: null, page: page + 1 } };
    let verses: string[] = [];
    let chars = 0;
    const flush = (): LibraryEvent => {
      page += 1;
      const text = verses.join(' ');
      verses = [];
      chars = 0;
      return {
        type: 'page',
        line: null,
        page: { page, volume: null, volumePage: null, label: null, partIndex: surah.id, part: title, text, markup: null },
      };
    };
    for (const verse of surah.verses) {
      const line = `${verse.text} ${verseNumber(verse.id)}`;
      if (verses.length > 0 && chars + line.length > PAGE_CHARS) yield flush();
      verses.push(line);
      chars += line.length + 1;
    }
    if (verses.length > 0) yield flush();
  }
}

/** Imports the demo Qur'an when the library is empty (first start); says whether it did. */
export async function loadDemoLibrary(em: EntityManager, importer: LibraryImportService, logger: Logger): Promise<ImportedBook | null> {
  const anyBook = await em.find(BookEntity, {}, { fields: ['id'], limit: 1 });
  if (anyBook.length > 0) return null;
  logger.info('library is empty: importing the demo Qur\u2019an');
  const [book] = await importer.importEvents(em, quranEvents());
  return book ?? null;
}
