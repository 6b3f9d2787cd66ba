import { AccountsErrorCode } from '../../subgraphs/library/accounts/accounts.errors.js';
import { ChatErrorCode } from '../../subgraphs/library/chat/chat.errors.js';
import { LibraryErrorCode } from '../../subgraphs/library/library-errors.js';
import { errorCodeDefinition } from '../../subgraphs/shared/errors.js';
import { VERSION } from '../../runtime/version.js';
import { LIBRARY_CHAT_PATHS } from './library-chat-paths.js';
import { LIBRARY_COMPONENTS } from './library-components.js';
import { LIBRARY_CONTENT_PATHS } from './library-content-paths.js';
import { LIBRARY_ACCOUNT_PATHS, LIBRARY_ADMIN_PATHS, LIBRARY_SERVICE_PATHS } from './library-paths.js';

export interface ErrorCodeEntry {
  readonly code: string;
  readonly status: number;
  readonly description: string;
}

/** Codes the facade itself answers with, beside those of the domain registry. */
const EDGE_CODES: readonly ErrorCodeEntry[] = [
  { code: 'not_found', status: 404, description: 'No route for the path.' },
  { code: 'method_not_allowed', status: 405, description: 'The path exists for other methods (see `Allow`).' },
  { code: 'index_unavailable', status: 503, description: '`/healthz`: the search engine is down.' },
  { code: 'internal_server_error', status: 500, description: 'An unexpected failure; the message is hidden.' },
];

/**
 * The library's error catalogue for the docs: codes of the domain registry that
 * library operations raise (add a module's codes here when it adds operations).
 */
export function libraryErrorCodes(): ErrorCodeEntry[] {
  const domain = [...Object.keys(AccountsErrorCode), ...Object.keys(LibraryErrorCode), ...Object.keys(ChatErrorCode)].map((code) => ({
    code,
    ...errorCodeDefinition(code)!,
  }));
  return [...domain, ...EDGE_CODES].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

const DESCRIPTION = `Programmatic access to an Arabic digital library: passage retrieval for RAG, page search, reading, catalog and chat over library texts.

### Authentication
Every \`/v1\` operation except \`POST /v1/register\` needs a key: \`Authorization: Bearer qk_live_…\`. Keys are free from \`POST /v1/register\`, shown once and stored only as a SHA-256 hash. A key's status is checked on every call, so suspending or revoking it applies to its next call. Open: \`/v1/register\`, \`/healthz\`, \`/plans\`, \`/\`, \`/docs\`, \`/openapi.json\`.

### Limits
Each plan has calls per minute and per UTC day (see \`/plans\`; free: 10 per minute, 300 per day). Every metered call counts, \`/v1/me\` and \`/v1/usage\` included; a refused call counts nothing. Counters are shared by all instances and exact under concurrency. A call over a limit gets 429 with \`Retry-After\` (seconds).

### Headers
Every response of a metered operation carries, when a key was sent (errors included): \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (the minute window), \`X-Quota-Limit\`, \`X-Quota-Remaining\`, \`X-Quota-Reset\` (the UTC day; resets at midnight UTC) — resets as epoch seconds — and the IETF fields \`RateLimit-Policy\` and \`RateLimit\`. An unknown key is answered with the free plan's windows, untouched.

### Errors
\`/v1\` errors have the body \`{error:{message, type, code, param, details}}\`; admin errors are \`{detail:[{loc, msg, type, input, ctx}]}\` (422) or \`{detail}\`.`;

/** The library's OpenAPI 3.1 description, served at `/openapi.json` and rendered at `/docs`. */
export function libraryOpenApi(baseUrl?: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Qantara library API', version: '1.0.0', description: DESCRIPTION, 'x-service-version': VERSION },
    ...(baseUrl ? { servers: [{ url: baseUrl }] } : {}),
    tags: [
      { name: 'content', description: 'Retrieval, search, reading and catalog.' },
      { name: 'chat', description: 'Chat completions over library texts, OpenAI-compatible.' },
      { name: 'accounts', description: 'Keys, consumption and registration.' },
      { name: 'admin', description: 'Key administration; header `x-admin-token`.' },
      { name: 'service', description: 'Health, plans and pages.' },
    ],
    security: [{ bearerKey: [] }],
    paths: {
      ...LIBRARY_CONTENT_PATHS,
      ...LIBRARY_CHAT_PATHS,
      ...LIBRARY_ACCOUNT_PATHS,
      ...LIBRARY_ADMIN_PATHS,
      ...LIBRARY_SERVICE_PATHS,
    },
    components: LIBRARY_COMPONENTS,
    'x-error-codes': libraryErrorCodes(),
  };
}
