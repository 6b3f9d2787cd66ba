import { z } from 'zod';
import { adminToken } from '../access.js';
import type { InputIssue } from '../input.js';
import { defineOperation } from '../operation.js';
import { LibraryImportResult } from './content-types.js';
import { ImportWire } from './content-wire.js';
import { LibraryErrorCode } from './errors.js';
import { adminRefusal, unknownImportFormat } from './refusals.js';

/** Importing books: a file uploaded to `POST /admin/import`, or its text through GraphQL. */

export const IMPORT_FORMATS = ['openiti', 'jsonl'] as const;

const JSON_LINES_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/json-lines'];

/** The format named by an upload's content type. */
function formatOf(contentType: unknown): unknown {
  if (typeof contentType !== 'string') return contentType;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'openiti';
  if (JSON_LINES_TYPES.includes(type)) return 'jsonl';
  return type === '' ? undefined : type;
}

const format = z.enum(IMPORT_FORMATS).describe('`openiti` (mARkdown) or `jsonl` (JSON Lines pages).');

/** A format problem is the import's own error; any other the admin family's. */
const importRefusal = (issues: readonly InputIssue[]) =>
  issues.some((issue) => issue.path[0] === 'format' || issue.path[0] === 'content-type')
    ? unknownImportFormat(IMPORT_FORMATS)
    : adminRefusal(issues);

const importTarget = {
  bookId: z.string().trim().min(1).optional().catch(undefined).describe('Store the book under this id.'),
};

const ERRORS = [LibraryErrorCode.admin_unauthorized, LibraryErrorCode.invalid_import];

export const libraryImportFile = defineOperation({
  service: 'library',
  name: 'libraryImportFile',
  kind: 'stream',
  summary: 'Import a book file',
  description:
    'The body is the file: OpenITI mARkdown (`Content-Type: text/markdown`) or JSON Lines pages (`application/x-ndjson`). It is read as it arrives, whatever its size; re-importing a book replaces it; an import is all or nothing. Admin only: header `x-admin-token`.',
  tags: ['admin'],
  access: adminToken(),
  input: {
    query: importTarget,
    headers: { format: z.preprocess(formatOf, format) },
  },
  output: LibraryImportResult,
  rest: {
    method: 'POST',
    path: '/admin/import',
    body: 'upload',
    bodyLimit: 64 * 1024 * 1024,
    names: { format: 'content-type' },
    response: ImportWire,
    respond: (result) => ({
      body: {
        book_id: result.bookId,
        parts: result.parts,
        pages: result.pages,
        books: result.books.map((book) => ({ book_id: book.bookId, title: book.title, parts: book.parts, pages: book.pages })),
      },
    }),
  },
  errors: ERRORS,
  refusal: importRefusal,
});

export const libraryImport = defineOperation({
  service: 'library',
  name: 'libraryImport',
  kind: 'mutation',
  summary: 'Import a book given as text',
  description: 'The GraphQL form of `POST /admin/import`: the file’s text in `content`. Admin only: header `x-admin-token`.',
  tags: ['admin'],
  access: adminToken(),
  input: { body: { format, content: z.string().min(1), ...importTarget } },
  output: LibraryImportResult,
  errors: ERRORS,
  refusal: importRefusal,
});
