import { OPEN_ROUTE_LIMITS } from './plans.js';

/** How the library introduces itself in its OpenAPI description and on its documentation page. */
export const LIBRARY_DESCRIPTION = `Programmatic access to an Arabic digital library: passage retrieval for RAG, page search, reading, catalog and chat over library texts.

### Authentication
Every \`/v1\` operation except \`POST /v1/register\` needs a key: \`Authorization: Bearer qk_live_…\`. Keys are free from \`POST /v1/register\`, shown once and stored only as a SHA-256 hash. A key's status is checked on every call, so suspending or revoking it applies to its next call. Open: \`/v1/register\`, \`/healthz\`, \`/plans\`, \`/\`, \`/docs\`, \`/openapi.json\`.

### Limits
Each plan has calls per minute and per UTC day (see \`/plans\`; free: 10 per minute, 300 per day). Every metered call counts, \`/v1/me\` and \`/v1/usage\` included; a refused call counts nothing. Counters are shared by all instances and exact under concurrency. A call over a limit gets 429 with \`Retry-After\` (seconds). The open routes \`/v1/register\`, \`/healthz\`, \`/plans\` and \`/\` take no key and are counted together per client address: \`${OPEN_ROUTE_LIMITS.rpm}\` calls per minute and \`${OPEN_ROUTE_LIMITS.rpd}\` per UTC day.

### Headers
Every response of a metered operation (errors included) and of an open route carries: \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (the minute window), \`X-Quota-Limit\`, \`X-Quota-Remaining\`, \`X-Quota-Reset\` (the UTC day; resets at midnight UTC) — resets as epoch seconds — and the IETF fields \`RateLimit-Policy\` and \`RateLimit\`. A missing or unknown key is answered with the free plan's windows, untouched; an open route shows its client address's windows. \`/docs\` and \`/openapi.json\` are static and carry none.

### Errors
\`/v1\` errors have the body \`{error:{message, type, code, param, details}}\`; admin errors are \`{detail:[{loc, msg, type, input, ctx}]}\` (422) or \`{detail}\`.`;
