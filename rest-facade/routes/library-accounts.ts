import { FacadeError } from '../facade-error.js';
import type { RouteDefinition, RouteInput } from '../route.js';
import {
  issuedKeyBody,
  meBody,
  planBody,
  usageBody,
  type IssuedKeyData,
  type MeData,
  type PlanData,
  type UsageData,
} from './library-account-shapes.js';

/** A key in a body must never be stored by a cache on the way. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

const INT32 = 2_147_483_647;

/**
 * `POST /v1/register` body → variables. Only JSON types are checked here (a
 * non-string e-mail is as invalid as a malformed one); the address itself is checked
 * by the registration service.
 */
function registrationVariables(input: RouteInput): Record<string, unknown> {
  const body =
    typeof input.body === 'object' && input.body !== null && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : {};
  const { email, org } = body;
  if (email !== undefined && typeof email !== 'string') {
    throw new FacadeError(422, 'invalid_email', 'email: must be a string', 'email', [{ field: 'email', message: 'must be a string' }]);
  }
  if (org !== undefined && org !== null && typeof org !== 'string') {
    throw new FacadeError(422, 'invalid_org', 'org: must be a string', 'org', [{ field: 'org', message: 'must be a string' }]);
  }
  return { email: email ?? '', org: org ?? null };
}

/**
 * `days` of `/v1/usage`: the seed publishes no 422 for it, so a value that is not an
 * integer means the default, and the service caps the rest (1…90).
 */
function usageVariables(input: RouteInput): Record<string, unknown> {
  const raw = input.query.days;
  if (raw === undefined || !/^\s*[+-]?\d+\s*$/.test(raw)) return {};
  return { days: Math.max(-INT32, Math.min(INT32, Number.parseInt(raw, 10))) };
}

/** `/v1/register`, `/v1/me`, `/v1/usage` and `/plans`. */
export const libraryAccountRoutes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/v1/register',
    family: 'library',
    operation: 'LibraryRegister',
    variables: registrationVariables,
    respond: (data) => ({ status: 201, body: issuedKeyBody(data.libraryRegister as IssuedKeyData), headers: NO_STORE }),
  },
  {
    method: 'GET',
    path: '/v1/me',
    family: 'library',
    operation: 'LibraryMe',
    respond: (data) => ({ body: meBody(data.libraryMe as MeData) }),
  },
  {
    method: 'GET',
    path: '/v1/usage',
    family: 'library',
    operation: 'LibraryUsage',
    variables: usageVariables,
    respond: (data) => ({ body: usageBody(data.libraryUsage as UsageData) }),
  },
  {
    method: 'GET',
    path: '/plans',
    family: 'library',
    operation: 'LibraryPlans',
    respond: (data) => ({ body: { plans: (data.libraryPlans as PlanData[]).map(planBody) } }),
  },
];
