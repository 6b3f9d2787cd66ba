import { z } from 'zod';
import { libraryAccount, libraryKey, publicAccess } from '../access.js';
import { DomainError } from '../errors.js';
import { dottedPath, type InputIssue } from '../input.js';
import { defineOperation } from '../operation.js';
import { PAGE_HEADERS } from '../pages/html.js';
import { LibraryIssuedKey, LibraryKey, LibraryMe, LibraryPlan, LibraryUsage } from './account-types.js';
import {
  IssuedKeyWire,
  issuedKeyBody,
  KeyListWire,
  keyBody,
  MeWire,
  meBody,
  NO_STORE,
  planBody,
  PlansWire,
  UsageWire,
  usageBody,
} from './account-wire.js';
import { LibraryErrorCode } from './errors.js';
import { libraryRefusal } from './refusals.js';
import { OPEN_ROUTE_LIMITS } from './plans.js';
import { lib } from './fields.js';
import { renderLandingPage } from './landing-page.js';

/** Plans, registration and what a key learns about itself: `/plans`, `/`, `/v1/register`, `/v1/me`, `/v1/usage`. */

export const libraryPlans = defineOperation({
  service: 'library',
  name: 'libraryPlans',
  kind: 'query',
  summary: 'Plans and their limits',
  description: `Open: no key needed; counted per client address (${OPEN_ROUTE_LIMITS.rpm} calls per minute, ${OPEN_ROUTE_LIMITS.rpd} per UTC day, shared by the open routes).`,
  tags: ['service'],
  access: publicAccess(),
  output: z.array(LibraryPlan),
  rest: [
    {
      method: 'GET',
      path: '/plans',
      response: PlansWire,
      respond: (plans) => ({ body: { plans: plans.map(planBody) } }),
    },
    {
      method: 'GET',
      path: '/',
      summary: 'Landing page',
      contentType: 'text/html',
      respond: (plans, request) => ({
        type: 'text/html; charset=utf-8',
        headers: PAGE_HEADERS,
        body: renderLandingPage(plans, request.baseUrl),
      }),
    },
  ],
  errors: [LibraryErrorCode.rate_limit_exceeded, LibraryErrorCode.quota_exceeded],
});

/** Registration's type problems keep the codes its service uses for the same fields. */
const registrationRefusal = (issues: readonly InputIssue[]) => {
  const [first] = issues;
  const field = first ? dottedPath(first.path) : 'email';
  const code = field === 'org' ? LibraryErrorCode.invalid_org : LibraryErrorCode.invalid_email;
  const message = first?.message ?? 'is invalid';
  return new DomainError(code, `${field}: ${message}`, { param: field, details: [{ field, message }] });
};

export const libraryRegister = defineOperation({
  service: 'library',
  name: 'libraryRegister',
  kind: 'mutation',
  summary: 'Register a free key',
  description:
    'No key needed; counted per client address like the other open routes. At most 3 keys per e-mail address and 5 per client address per UTC day. The key appears in this response only; it is stored as a SHA-256 hash.',
  tags: ['accounts'],
  access: publicAccess(),
  input: {
    body: {
      email: z.string({ error: 'must be a string' }).optional().describe('Your e-mail address.'),
      org: z.string({ error: 'must be a string' }).nullish().describe('Project or organization name (at most 200 characters).'),
    },
  },
  output: LibraryIssuedKey,
  rest: {
    method: 'POST',
    path: '/v1/register',
    status: 201,
    headers: NO_STORE,
    response: IssuedKeyWire,
    respond: (issued) => ({ body: issuedKeyBody(issued) }),
  },
  errors: [
    LibraryErrorCode.invalid_email,
    LibraryErrorCode.invalid_org,
    LibraryErrorCode.registration_limit_exceeded,
    LibraryErrorCode.rate_limit_exceeded,
    LibraryErrorCode.quota_exceeded,
  ],
  refusal: registrationRefusal,
});

export const libraryMe = defineOperation({
  service: 'library',
  name: 'libraryMe',
  kind: 'query',
  summary: 'The calling key and its consumption',
  description: 'Counts as a call (operation `me`).',
  tags: ['accounts'],
  access: libraryKey('me'),
  output: LibraryMe,
  rest: { method: 'GET', path: '/v1/me', response: MeWire, respond: (me) => ({ body: meBody(me) }) },
});

export const libraryUsage = defineOperation({
  service: 'library',
  name: 'libraryUsage',
  kind: 'query',
  summary: 'Consumption log of the last N days',
  description: 'Counts as a call (operation `usage`). A `days` above 90 is served as 90; a value that is not an integer means the default.',
  tags: ['accounts'],
  access: libraryKey('usage'),
  input: { query: { days: lib.saturatingInt().describe('Days to cover (default 30, at most 90).') } },
  output: LibraryUsage,
  rest: { method: 'GET', path: '/v1/usage', response: UsageWire, respond: (usage) => ({ body: usageBody(usage) }) },
});

const SIGNED_IN =
  'For a signed-in Qantara account: `Authorization: Bearer <access token>` from `POST /api/v1/iam/login` (not a library key). Not metered.';

export const libraryAccountKeys = defineOperation({
  service: 'library',
  name: 'libraryAccountKeys',
  kind: 'query',
  summary: 'The signed-in account’s keys',
  description: `The keys the account created with \`POST /v1/me/keys\`, oldest first; never the keys themselves. ${SIGNED_IN}`,
  tags: ['accounts'],
  access: libraryAccount(),
  output: z.array(LibraryKey),
  rest: {
    method: 'GET',
    path: '/v1/me/keys',
    response: KeyListWire,
    respond: (keys) => ({ body: { keys: keys.map(keyBody) } }),
  },
  errors: [LibraryErrorCode.invalid_account_token, LibraryErrorCode.account_unavailable],
});

export const libraryCreateAccountKey = defineOperation({
  service: 'library',
  name: 'libraryCreateAccountKey',
  kind: 'mutation',
  summary: 'Create a key for the signed-in account',
  description: `A free-plan key owned by the account and named by its e-mail address; it counts against the same daily limits as \`POST /v1/register\` (3 per e-mail address, 5 per client address). The key appears in this response only. ${SIGNED_IN}`,
  tags: ['accounts'],
  access: libraryAccount(),
  input: {
    body: { org: z.string({ error: 'must be a string' }).nullish().describe('Project or organization name (at most 200 characters).') },
  },
  output: LibraryIssuedKey,
  rest: {
    method: 'POST',
    path: '/v1/me/keys',
    status: 201,
    headers: NO_STORE,
    response: IssuedKeyWire,
    respond: (issued) => ({ body: issuedKeyBody(issued) }),
  },
  errors: [
    LibraryErrorCode.invalid_account_token,
    LibraryErrorCode.account_unavailable,
    LibraryErrorCode.invalid_org,
    LibraryErrorCode.registration_limit_exceeded,
  ],
  refusal: (issues) => (issues[0] && dottedPath(issues[0].path) === 'org' ? registrationRefusal(issues) : libraryRefusal(issues)),
});
