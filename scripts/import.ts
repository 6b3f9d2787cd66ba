/**
 * `npm run import -- FILE… [--book-id ID]`: imports OpenITI mARkdown or JSON Lines files into the
 * library, streaming each file (all or nothing: one transaction per file), with a progress bar on a terminal.
 * Uses the server's configuration, so it works while the server runs.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import { LibraryImportService, type ImportedBook } from '../subgraphs/library/import/library-import.service.js';
import { detectFormat, eventsOf } from '../subgraphs/library/import/sources.js';
import { DomainError } from '../contracts/errors.js';
import { openLibraryCli } from './cli-runtime.js';

interface Arguments {
  files: string[];
  bookId?: string;
}

function parseArguments(argv: readonly string[]): Arguments {
  const files: string[] = [];
  let bookId: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--book-id') bookId = argv[++i];
    else if (arg.startsWith('--book-id=')) bookId = arg.slice('--book-id='.length);
    else files.push(arg);
  }
  if (files.length === 0) {
    process.stderr.write('usage: npm run import -- FILE… [--book-id ID]\n');
    process.exit(2);
  }
  if (bookId !== undefined && files.length > 1) {
    process.stderr.write('import: --book-id needs exactly one file\n');
    process.exit(2);
  }
  return { files, bookId };
}

/** Lines of a file, streamed; `bytes()` tells how far the reader has got. */
function fileLines(path: string) {
  const stream = createReadStream(path);
  return { lines: createInterface({ input: stream, crlfDelay: Infinity }), bytes: () => stream.bytesRead };
}

async function firstLine(path: string): Promise<string> {
  const { lines } = fileLines(path);
  for await (const line of lines) {
    if (line.trim() !== '') {
      lines.close();
      return line;
    }
  }
  return '';
}

const args = parseArguments(process.argv.slice(2));
const cli = await openLibraryCli();
const importer = new LibraryImportService(cli.engine, cli.logger);
const interactive = process.stderr.isTTY === true;
const bar = new cliProgress.SingleBar(
  { format: '{file} [{bar}] {percentage}% | {books} books, {pages} pages', hideCursor: true, stream: process.stderr },
  cliProgress.Presets.shades_classic,
);
let failures = 0;
const imported: ImportedBook[] = [];
for (const path of args.files) {
  const name = basename(path);
  try {
    const size = (await stat(path)).size;
    const format = detectFormat(await firstLine(path));
    if (!format) throw new Error('neither OpenITI mARkdown (######OpenITI#) nor JSON Lines ({…} per line)');
    const { lines, bytes } = fileLines(path);
    const counts = { books: 0, pages: 0 };
    let books: ImportedBook[] = [];
    if (interactive) bar.start(Math.max(size, 1), 0, { file: name, ...counts });
    const timer = interactive ? setInterval(() => bar.update(bytes(), { ...counts }), 100) : undefined;
    try {
      books = await importer.importEvents(cli.orm.em.fork(), eventsOf(format, lines, { bookId: args.bookId, fileName: name }), {
        onBook: (book) => {
          counts.books += 1;
          counts.pages += book.pages;
        },
      });
      imported.push(...books);
      if (interactive) bar.update(size, { ...counts });
    } finally {
      clearInterval(timer);
      if (interactive) bar.stop();
    }
    for (const book of books) {
      process.stdout.write(`${name}: ${book.bookId} — ${book.parts} parts, ${book.pages} pages\n`);
    }
  } catch (error) {
    failures += 1;
    const message = error instanceof DomainError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: import failed: ${message}\n`);
  }
}
process.stdout.write(
  `import: ${imported.length} book(s), ${imported.reduce((sum, book) => sum + book.pages, 0)} pages; ${failures} file(s) failed\n`,
);
await cli.close();
process.exit(failures > 0 ? 1 : 0);
