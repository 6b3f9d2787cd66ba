import { createReadStream, createWriteStream, existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { eventsOf } from '../subgraphs/library/import/sources.js';
import { ROOT } from './harness.js';

/** One source book of the corpus, cut into what re-sampling needs. */
interface SourceBook {
  readonly title: string;
  readonly authors: string;
  readonly category: string;
  /** Whole sentences (with their end marks), in no particular order. */
  readonly sentences: readonly string[];
  /** Lengths of the real pages, in characters: re-sampled pages take their length from here. */
  readonly pageLengths: readonly number[];
  readonly parts: readonly string[];
}

/** The OpenITI books the corpora are re-sampled from (`OPENITI_DIR` names another place for them). */
export const OPENITI = process.env.OPENITI_DIR ?? join(ROOT, '..', 'shared', 'corpus', 'openiti');

/** The OpenITI book files in `from` (by default beside the project), or none when there are none. */
export function corpusFiles(from: string = OPENITI): string[] {
  if (!existsSync(from)) return [];
  return readdirSync(from)
    .filter((name) => /^\d{4}/.test(name))
    .map((name) => join(from, name));
}

/** A small seeded generator (mulberry32), so a corpus of a given size is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SENTENCE = /[^.!?؟۔\n]+[.!?؟۔]*/gu;

async function readSource(path: string): Promise<SourceBook> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let title = basename(path);
  let authors = '';
  let category = '';
  const sentences: string[] = [];
  const pageLengths: number[] = [];
  const parts: string[] = [];
  for await (const event of eventsOf('openiti', lines, { fileName: basename(path) })) {
    if (event.type === 'book') {
      title = event.book.title;
      authors = event.book.authors.join('، ');
      category = event.book.category;
    } else if (event.type === 'part') parts.push(event.part.title);
    else {
      pageLengths.push(event.page.text.length);
      for (const match of event.page.text.matchAll(SENTENCE)) {
        const sentence = match[0].trim();
        if (sentence.length > 1) sentences.push(sentence);
      }
    }
  }
  return { title, authors, category, sentences, pageLengths, parts: parts.length > 0 ? parts : [title] };
}

/** A page of about `length` characters: whole sentences of the source drawn at random. */
function samplePage(source: SourceBook, length: number, random: () => number): string {
  const pick = () => source.sentences[Math.floor(random() * source.sentences.length)]!;
  let text = pick();
  while (text.length < length) {
    const next = pick();
    if (text.length + next.length > length * 1.25) break;
    text += random() < 0.2 ? `\n${next}` : ` ${next}`;
  }
  return text;
}

export interface ScaleCorpus {
  readonly files: readonly string[];
  readonly books: number;
  readonly pages: number;
  readonly chars: number;
}

/**
 * Writes `pages` pages re-sampled from the OpenITI books as JSON Lines files in `dir`: each
 * generated book draws from one source book (sources weighted by their page count), its pages take
 * their lengths from the source's real pages and are filled with the source's sentences, drawn at
 * random; books hold 100–900 pages, a part every 20 pages. `from` is the directory of the OpenITI books.
 */
export async function writeScaleCorpus(dir: string, pages: number, seed = 17, from: string = OPENITI): Promise<ScaleCorpus> {
  const sources = await Promise.all(
    corpusFiles(from)
      .filter((file) => !file.endsWith('.jsonl'))
      .map(readSource),
  );
  const weights = sources.map((source) => source.pageLengths.length);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const random = seededRandom(seed);
  const chooseSource = () => {
    let left = random() * totalWeight;
    for (const [index, weight] of weights.entries()) if ((left -= weight) < 0) return sources[index]!;
    return sources.at(-1)!;
  };
  const files: string[] = [];
  let written = 0;
  let chars = 0;
  let books = 0;
  let out: ReturnType<typeof createWriteStream> | undefined;
  while (written < pages) {
    if (!out || written >= files.length * 50_000) {
      out?.end();
      if (out) await once(out, 'finish');
      files.push(join(dir, `scale-${String(files.length + 1).padStart(3, '0')}.jsonl`));
      out = createWriteStream(files.at(-1)!);
    }
    const source = chooseSource();
    books += 1;
    const bookId = `scale-${String(books).padStart(6, '0')}`;
    const size = Math.min(pages - written, 100 + Math.floor(random() * 801));
    let part = source.parts[0]!;
    for (let page = 1; page <= size; page++) {
      if (page % 20 === 1) part = source.parts[Math.floor(random() * source.parts.length)]!;
      const length = source.pageLengths[Math.floor(random() * source.pageLengths.length)]!;
      const text = samplePage(source, length, random);
      chars += text.length;
      const line = {
        book_id: bookId,
        book: `${source.title} (${books})`,
        authors: source.authors,
        category: source.category,
        part,
        page,
        text,
      };
      if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
    }
    written += size;
  }
  out?.end();
  if (out) await once(out, 'finish');
  return { files, books, pages: written, chars };
}
