import { defineMcpServer } from '../mcp.js';
import { libraryMe } from './accounts.contract.js';

/** The library MCP endpoint (issue 17): the same bearer keys and quotas as `/v1`; every tool call counts as one call. */
export const LIBRARY_MCP = defineMcpServer({
  service: 'library',
  path: '/v1/mcp',
  name: 'qantara/library',
  title: 'Qantara library',
  description: 'Arabic digital library: passage retrieval for citation, page search, reading, catalog.',
  instructions: [
    'retrieve returns passages around the query words, each with the book, part and page id to cite;',
    'read_page returns a whole page by that id, table_of_contents the headings of a book.',
    'search returns wider, page-level passages; books, authors and categories browse the catalog.',
    'Every tool call counts against the key’s per-minute and per-day quota, as the REST API does.',
  ].join(' '),
  admission: libraryMe,
  credential: 'A library API key (`qk_live_…`) from POST /v1/register.',
});
