import { LIBRARY_SCHEMAS } from './library-schemas.js';

/**
 * Reusable parts of the library's OpenAPI 3.1 description: schemas of bodies,
 * the rate-limit headers, error responses and security schemes.
 */

const header = (description: string) => ({ description, schema: { type: 'string' } });
const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/** Headers on every response of a metered operation when a key was sent, errors included. */
export const RATE_LIMIT_HEADER_NAMES = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'RateLimit-Policy',
  'RateLimit',
] as const;

const HEADERS = {
  'X-RateLimit-Limit': integerHeader('Calls allowed per minute.'),
  'X-RateLimit-Remaining': integerHeader('Calls left in the current minute.'),
  'X-RateLimit-Reset': integerHeader('End of the current minute, epoch seconds.'),
  'X-Quota-Limit': integerHeader('Calls allowed per UTC day.'),
  'X-Quota-Remaining': integerHeader('Calls left today.'),
  'X-Quota-Reset': integerHeader('Next UTC midnight, epoch seconds.'),
  'RateLimit-Policy': header('IETF draft field: `"minute";q=10;w=60, "day";q=300;w=86400`.'),
  RateLimit: header('IETF draft field: remaining calls and seconds to reset per policy, `"minute";r=9;t=42, "day";r=299;t=3600`.'),
  'Retry-After': integerHeader('Seconds to wait before the call can pass.'),
};

export const rateLimitHeaders = () =>
  Object.fromEntries(RATE_LIMIT_HEADER_NAMES.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });

const RESPONSES = {
  Unauthorized: {
    description:
      'No key (`missing_api_key`), an unknown key (`invalid_api_key`), or a suspended (`key_suspended`) or revoked (`key_revoked`) key.',
    headers: rateLimitHeaders(),
    content: json('Error'),
  },
  TooManyRequests: {
    description: 'Per-minute limit (`rate_limit_exceeded`) or daily quota (`quota_exceeded`) used up; the refused call counts nothing.',
    headers: { ...rateLimitHeaders(), 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
    content: json('Error'),
  },
  UpstreamError: { description: 'A dependency failed (`search_unavailable`, …).', content: json('Error') },
  AdminUnauthorized: {
    description: '`x-admin-token` missing or wrong, or admin disabled (no `ADMIN_TOKEN`).',
    content: json('AdminError'),
  },
  AdminValidationError: { description: 'Invalid path parameter or body, or an unknown `key_id`.', content: json('ValidationError') },
};

export const LIBRARY_COMPONENTS = {
  schemas: LIBRARY_SCHEMAS,
  headers: HEADERS,
  responses: RESPONSES,
  securitySchemes: {
    bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key from `POST /v1/register`: `Authorization: Bearer qk_live_…`.' },
    adminToken: { type: 'apiKey', in: 'header', name: 'x-admin-token', description: 'The service’s `ADMIN_TOKEN`.' },
  },
};
