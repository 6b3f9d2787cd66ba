/**
 * `npm run reindex`: rebuilds the search index from the pages in PostgreSQL (terms, document
 * frequencies and, with Meilisearch, the engine's documents), one book per transaction.
 */
import cliProgress from 'cli-progress';
import { LibraryReindexService } from '../subgraphs/library/search/reindex.service.js';
import { openLibraryCli } from './cli-runtime.js';

const cli = await openLibraryCli();
const interactive = process.stderr.isTTY === true;
const bar = new cliProgress.SingleBar(
  { format: 'reindex [{bar}] {value}/{total} books | {pages} pages', hideCursor: true, stream: process.stderr },
  cliProgress.Presets.shades_classic,
);
let pages = 0;
let started = false;
try {
  const books = await new LibraryReindexService(cli.engine, cli.logger).reindexAll(cli.orm.em.fork(), (book, total) => {
    pages += book.pages;
    if (!interactive) return;
    if (!started) bar.start(total, 0, { pages });
    started = true;
    bar.increment(1, { pages });
  });
  if (started) bar.stop();
  process.stdout.write(`reindex: ${books.length} book(s), ${pages} pages indexed with ${cli.engine.kind}\n`);
} catch (error) {
  if (started) bar.stop();
  process.stderr.write(`reindex failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
await cli.close();
process.exit(process.exitCode ?? 0);
