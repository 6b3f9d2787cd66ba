import { describeAccess, type Access } from '../../contracts/access.js';
import type { ServiceName } from '../../contracts/operation.js';

/** Security schemes and shared headers of the OpenAPI descriptions. */

const header = (description: string) => ({ description, schema: { type: 'string' } });
const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/**
 * Headers on every response of a metered operation, errors included (a missing or unknown key's
 * show the free plan's windows, untouched), and of the library's open routes, counted per client
 * address.
 */
export const RATE_LIMIT_HEADERS = {
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

export const rateLimitHeaderRefs = () =>
  Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS)
      .filter((name) => name !== 'Retry-After')
      .map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  );

export const SECURITY_SCHEMES: Readonly<Record<ServiceName, Record<string, unknown>>> = {
  library: {
    bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key from `POST /v1/register`: `Authorization: Bearer qk_live_…`.' },
    accountToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The access token of a signed-in Qantara account, from `POST /api/v1/iam/login`: `Authorization: Bearer eyJ…`.',
    },
    adminToken: { type: 'apiKey', in: 'header', name: 'x-admin-token', description: 'The service’s `ADMIN_TOKEN`.' },
  },
  research: {
    researchKey: { type: 'http', scheme: 'bearer', description: 'A workspace key: `Authorization: Bearer rk_live_…` (or `rk_test_…`).' },
    oauth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'An OAuth 2.0 access token of the identity provider (ours at `/oidc`, or a configured issuer) for the workspace API `/api/chat`; a 401 names the protected resource metadata in `WWW-Authenticate`.',
    },
    adminToken: { type: 'apiKey', in: 'header', name: 'x-admin-token', description: 'The service’s `ADMIN_TOKEN`.' },
  },
  operations: {
    bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from `POST /api/v1/iam/login`.' },
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'A business API key from `POST /api/v1/api-keys` (`qsk_…`). The security requirement names the scope it needs (`read`, `write`, `delete`, `admin`, `webhooks`; `*` holds all); it never does more than its owner’s roles. Every answer to a valid key carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (the organization’s calls per UTC day by plan: Free 1,000, Pro 10,000, Enterprise unlimited shown as 2147483647).',
    },
  },
};

/** An operation's description ending with who may call it (as `x-access` says), so any renderer shows it. */
export function withAccess(description: string | undefined, access: Access | readonly Access[]): string {
  const line = `**Access:** ${describeAccess(access)}.`;
  return description ? `${description}\n\n${line}` : line;
}
