import type { EntityManager } from '@mikro-orm/postgresql';
import { analyzeQuery, analyzeQueryWords, analyzeTokens, type AnalyzedToken } from '../analysis/arabic.js';
import { RETRIEVAL_BOUNDS } from '../../../contracts/library/content.contract.js';
import type { RetrievalService, RetrievedPassage } from '../search/retrieval.service.js';
import { isSentenceEnd, isSentenceStart } from '../analysis/sentences.js';
import type { ChatSource } from './chat-events.js';
import type { ChatMessage } from './chat-request.js';

/** How much of the library an answer may draw on. */
export const GROUNDING = {
  /** Passages asked of retrieval (also bounded by the plan's `limit`). */
  passages: 8,
  /** Sources kept for the answer. */
  sources: 5,
  /** Longest passage, as `/v1/retrieve`'s `max_chars`. */
  maxChars: 700,
  /** Share of the query's distinct terms a passage must contain to count as relevant. */
  coverage: 0.5,
  /** A last turn with fewer terms than this takes earlier user turns as context. */
  contextTerms: 3,
  /** How far a passage may grow at each edge to end on whole sentences. */
  sentenceReach: 300,
} as const;

export interface Grounding {
  /** The retrieval query built from the conversation. */
  readonly query: string;
  /** Its analysed, distinct terms. */
  readonly terms: readonly string[];
  readonly hits: number;
  readonly sources: readonly ChatSource[];
  /** The query-term matches in each source's text (offsets into it), aligned with `sources`: analysed once. */
  readonly matches: ReadonlyArray<readonly AnalyzedToken[]>;
}

const distinctTerms = (text: string) => [...new Set(analyzeQuery(text))];

/** Cuts text to at most `max` characters at a word boundary. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return space > max / 2 ? cut.slice(0, space) : cut;
}

/**
 * The retrieval query of a conversation: the last user turn, and — when it is too short
 * to stand alone ("and who built it?") — earlier user turns, most recent first, as
 * context, within retrieval's 500 characters. Assistant turns are left out: they repeat
 * passages already cited.
 */
export function retrievalQuery(messages: readonly ChatMessage[]): string {
  const turns = messages
    .filter((message) => message.role === 'user' && message.content.trim() !== '')
    .map((message) => message.content.trim());
  const max = RETRIEVAL_BOUNDS.q.max;
  let query = clip(turns.pop() ?? '', max);
  let terms = distinctTerms(query).length;
  while (terms < GROUNDING.contextTerms && turns.length > 0) {
    const earlier = turns.pop()!;
    if (query.length + 1 + earlier.length > max) break;
    query = `${earlier} ${query}`;
    terms = distinctTerms(query).length;
  }
  return query;
}

/**
 * The words of `text` whose analysed term is a query term, or whose root is a query word's root
 * (`roots`: root → that word's term); each labelled with the query term it stands for.
 */
export function termMatches(text: string, terms: ReadonlySet<string>, roots: ReadonlyMap<string, string> = new Map()): AnalyzedToken[] {
  return analyzeTokens(text).flatMap((token) => {
    if (terms.has(token.term)) return [token];
    const term = roots.get(token.root);
    return term === undefined ? [] : [{ ...token, term }];
  });
}

const distinctOf = (matches: readonly AnalyzedToken[]) => new Set(matches.map((match) => match.term)).size;

/**
 * The passage grown, at each edge where it cuts a sentence, to the nearest sentence or verse edge of
 * its page within GROUNDING.sentenceReach characters, so an answer can quote it in whole sentences.
 */
export function toWholeSentences(passage: RetrievedPassage): RetrievedPassage {
  const page = passage.pageText;
  if (page === null) return passage;
  const reach = GROUNDING.sentenceReach;
  let start = passage.start;
  while (start > Math.max(0, passage.start - reach) && !isSentenceStart(page, start)) start -= 1;
  if (!isSentenceStart(page, start)) start = passage.start;
  const end0 = passage.start + passage.length;
  let end = end0;
  while (end < Math.min(page.length, end0 + reach) && !isSentenceEnd(page, end)) end += 1;
  if (!isSentenceEnd(page, end)) end = end0;
  return { ...passage, start, length: end - start, text: page.slice(start, end) };
}

/**
 * Finds the passages an answer may use: retrieval on the conversation, then only the
 * passages that contain enough of the query's terms, numbered for citation.
 */
export class ChatGrounding {
  constructor(private readonly retrieval: RetrievalService) {}

  async find(em: EntityManager, messages: readonly ChatMessage[], planLimit: number): Promise<Grounding> {
    const query = retrievalQuery(messages);
    const terms = distinctTerms(query);
    // Nothing to search for (a greeting, punctuation): no retrieval, and an honest "not found".
    if (terms.length === 0 || query.trim().length < RETRIEVAL_BOUNDS.q.min) return { query, terms, hits: 0, sources: [], matches: [] };
    const limit = Math.min(GROUNDING.passages, planLimit);
    // The page text lets an extractive answer tell whole sentences from ones the passage cut short.
    const found = await this.retrieval.retrieve(em, { q: query, limit, maxChars: GROUNDING.maxChars, withPageText: true }, planLimit);
    const wanted = new Set(terms);
    const roots = new Map(analyzeQueryWords(query).map((word) => [word.root, word.term]));
    const needed = Math.max(1, Math.ceil(terms.length * GROUNDING.coverage));
    const relevant = found.passages
      .map(toWholeSentences)
      .map((passage) => ({ passage, matches: termMatches(passage.text, wanted, roots) }))
      .filter(({ matches }) => distinctOf(matches) >= needed)
      .slice(0, GROUNDING.sources);
    return {
      query,
      terms,
      hits: found.hits,
      sources: relevant.map(({ passage }, index) => ({ ref: index + 1, passage })),
      matches: relevant.map(({ matches }) => matches),
    };
  }
}
