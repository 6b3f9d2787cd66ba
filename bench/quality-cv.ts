import { createReadStream, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { analyzeQueryWords, analyzeTokens } from '../subgraphs/library/analysis/arabic.js';
import { eventsOf } from '../subgraphs/library/import/sources.js';
import { quranEvents } from '../subgraphs/library/import/quran-demo.js';
import { idf, pageScore, weightedQuery, type Bm25Parameters, type CorpusStats } from '../subgraphs/library/search/bm25.js';
import { corpusFiles } from './scale-corpus.js';

/**
 * The ranking function of the PostgreSQL engine, scored exhaustively in memory over the library the
 * quality benchmark builds (demo Qur'an, OpenITI books, the QQA passages), so that its knobs can be
 * cross-validated: the engine ranks exactly as this does (test/subgraphs/library/search/exact-ranking.test.ts).
 */

interface Page {
  readonly id: string;
  readonly qpc: boolean;
  readonly dl: number;
  readonly tfs: ReadonlyMap<string, number>;
}

export interface Knobs extends Bm25Parameters {
  readonly rootWeight: number;
  readonly dropFraming: boolean;
}

function page(id: string, text: string, qpc: boolean): Page {
  const tokens = analyzeTokens(text);
  const tfs = new Map<string, number>();
  for (const term of tokens.flatMap((token) => [token.term, token.root])) tfs.set(term, Math.min((tfs.get(term) ?? 0) + 1, 256));
  return { id, qpc, dl: tokens.length, tfs };
}

/** The library of the quality run, its QQA passages keyed by passage id. */
export class QualityLibrary {
  private readonly df = new Map<string, number>();
  readonly stats: CorpusStats;

  private constructor(private readonly pages: readonly Page[]) {
    for (const { tfs } of pages) for (const term of tfs.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    this.stats = { n: pages.length, avgdl: Math.max(pages.reduce((sum, { dl }) => sum + dl, 0) / pages.length, 1) };
  }

  static async load(qpcFile: string): Promise<QualityLibrary> {
    const pages: Page[] = [];
    for await (const event of quranEvents())
      if (event.type === 'page') pages.push(page(`quran-${event.page.page}`, event.page.text, false));
    for (const file of corpusFiles()) {
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      for await (const event of eventsOf('openiti', lines, { fileName: basename(file) })) {
        if (event.type === 'page') pages.push(page(`${basename(file)}-${event.page.page}`, event.page.text, false));
      }
    }
    for (const line of readFileSync(qpcFile, 'utf8').split('\n').filter(Boolean)) {
      const [id = '', text = ''] = line.split('\t');
      pages.push(page(id, text, true));
    }
    return new QualityLibrary(pages);
  }

  /** The ten best QQA passages for a question, as `/v1/retrieve?book=qpc` ranks them with these knobs. */
  rank(question: string, knobs: Knobs): string[] {
    const query = weightedQuery(analyzeQueryWords(question, !knobs.dropFraming), knobs.rootWeight).filter(({ term }) => this.df.has(term));
    const weights = query.map(({ term, weight }) => weight * idf(this.stats.n, this.df.get(term)!));
    return this.pages
      .filter((candidate) => candidate.qpc && query.some(({ term }) => candidate.tfs.has(term)))
      .map((candidate) => ({
        id: candidate.id,
        score: pageScore(
          query.map(({ term }) => candidate.tfs.get(term) ?? 0),
          candidate.dl,
          weights,
          this.stats,
          knobs,
        ),
      }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, 10)
      .map((ranked) => ranked.id);
  }
}

/** Average precision at 10 as the task's scorer computes it (relevant passages over all of them). */
export function averagePrecision(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  if (relevant.size === 0) return 0;
  let hits = 0;
  let sum = 0;
  ranked.forEach((id, i) => {
    if (relevant.has(id)) sum += ++hits / (i + 1);
  });
  return sum / relevant.size;
}

export interface Question {
  readonly id: string;
  readonly text: string;
  readonly relevant: ReadonlySet<string>;
}

export function readQuestions(questionsFile: string, qrelsFile: string): Question[] {
  const relevant = new Map<string, Set<string>>();
  for (const line of readFileSync(qrelsFile, 'utf8').split('\n')) {
    const [qid, , passage, judged] = line.trim().split(/\s+/);
    if (qid && passage && passage !== '-1' && Number(judged) > 0) relevant.set(qid, (relevant.get(qid) ?? new Set()).add(passage));
  }
  return readFileSync(questionsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', text = ''] = line.split('\t');
      return { id, text, relevant: relevant.get(id) ?? new Set<string>() };
    });
}

export interface CrossValidation {
  /** MAP@10 over all questions, each scored with the knobs tuned on the four folds without it. */
  readonly map: number;
  readonly folds: ReadonlyArray<{ readonly knobs: Knobs; readonly train: number; readonly test: number }>;
  /** The knobs tuned on every question, and their MAP@10. */
  readonly full: { readonly knobs: Knobs; readonly map: number };
}

/** 5-fold cross-validation (question i in fold i mod 5) of a grid of knobs. */
export function crossValidate(library: QualityLibrary, questions: readonly Question[], grid: readonly Knobs[]): CrossValidation {
  const precisions = grid.map((knobs) =>
    questions.map((question) => averagePrecision(library.rank(question.text, knobs), question.relevant)),
  );
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const best = (keep: (index: number) => boolean) => {
    let chosen = 0;
    let score = -1;
    precisions.forEach((values, g) => {
      const map = mean(values.filter((_, i) => keep(i)));
      if (map > score) [chosen, score] = [g, map];
    });
    return { chosen, score };
  };
  const folds = [0, 1, 2, 3, 4].map((fold) => {
    const { chosen, score } = best((i) => i % 5 !== fold);
    return { knobs: grid[chosen]!, train: score, test: mean(precisions[chosen]!.filter((_, i) => i % 5 === fold)), chosen, fold };
  });
  const held = questions.map((_, i) => precisions[folds[i % 5]!.chosen]![i]!);
  const full = best(() => true);
  return {
    map: mean(held),
    folds: folds.map(({ knobs, train, test }) => ({ knobs, train, test })),
    full: { knobs: grid[full.chosen]!, map: full.score },
  };
}

/** Every combination of the listed values. */
export function grid(axes: { readonly [K in keyof Knobs]: ReadonlyArray<Knobs[K]> }): Knobs[] {
  const out: Knobs[] = [];
  for (const k1 of axes.k1)
    for (const b of axes.b)
      for (const rootWeight of axes.rootWeight) for (const dropFraming of axes.dropFraming) out.push({ k1, b, rootWeight, dropFraming });
  return out;
}

export const QQA_FILES = (dir: string) => ({
  qpc: join(dir, 'QQA23_TaskA_QPC_v1.1.tsv'),
  questions: join(dir, 'QQA23_TaskA_train.tsv'),
  qrels: join(dir, 'QQA23_TaskA_qrels_train.gold'),
});
