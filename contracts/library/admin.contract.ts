import { z } from 'zod';
import { adminToken } from '../access.js';
import { defineOperation } from '../operation.js';
import { LibraryAdminStats, LibraryIssuedKey, LibraryKey } from './account-types.js';
import { AdminStatsWire, adminStatsBody, IssuedKeyWire, issuedKeyBody, KeyWire, keyBody, NO_STORE } from './account-wire.js';
import { emailProblem } from './email.js';
import { LibraryErrorCode } from './errors.js';
import { KEY_STATUSES, PLAN_NAMES, RPD_OVERRIDE_MAX, RPD_OVERRIDE_MIN } from './plans.js';

/**
 * Key administration behind `x-admin-token`. Input is worded as FastAPI/pydantic words
 * it (the seed's Validation error): integers are taken from JSON numbers and integer
 * strings, as pydantic's lax mode takes them.
 */

const INT32_MAX = 2_147_483_647;

const laxInteger = (value: unknown) => (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number.parseInt(value, 10) : value);

/** A key id is an integer; one no row can have (outside PostgreSQL `integer`) names no key. */
const keyId = z.preprocess(
  laxInteger,
  z.int().superRefine((id, context) => {
    if (id >= 1 && id <= INT32_MAX) return;
    const error = `no API key has id ${id}`;
    context.addIssue({
      code: 'custom',
      message: `Value error, ${error}`,
      params: { pydantic: { type: 'value_error', msg: `Value error, ${error}`, ctx: { error } } },
    });
  }),
);

const email = z
  .string()
  .max(254)
  .superRefine((value, context) => {
    const reason = emailProblem(value.trim());
    if (!reason) return;
    const msg = `value is not a valid email address: ${reason}`;
    context.addIssue({ code: 'custom', message: msg, params: { pydantic: { type: 'value_error', msg, ctx: { reason } } } });
  })
  .transform((value) => value.trim());

const ADMIN = 'Admin only: header `x-admin-token`.';
const ERRORS = [LibraryErrorCode.admin_unauthorized, LibraryErrorCode.invalid_admin_input];

export const libraryAdminCreateKey = defineOperation({
  service: 'library',
  name: 'libraryAdminCreateKey',
  kind: 'mutation',
  summary: 'Create a key on any plan',
  description: `The key is shown once. ${ADMIN}`,
  tags: ['admin'],
  access: adminToken(),
  input: {
    body: { email, plan: z.enum(PLAN_NAMES), org: z.string().max(200).nullable().default(null) },
  },
  output: LibraryIssuedKey,
  rest: {
    method: 'POST',
    path: '/admin/keys',
    headers: NO_STORE,
    response: IssuedKeyWire,
    respond: (issued) => ({ body: issuedKeyBody(issued) }),
  },
  errors: ERRORS,
});

const keyUpdate = <const F extends string, S extends z.ZodType>(name: string, what: F, schema: S, summary: string, description: string) =>
  defineOperation({
    service: 'library',
    name,
    kind: 'mutation',
    summary,
    description: `${description} ${ADMIN}`,
    tags: ['admin'],
    access: adminToken(),
    input: { path: { keyId }, body: { [what]: schema } as { [K in F]: S } },
    output: LibraryKey,
    rest: { method: 'POST', path: `/admin/keys/:key_id/${what}`, response: KeyWire, respond: (key) => ({ body: keyBody(key) }) },
    errors: ERRORS,
  });

export const libraryAdminSetKeyPlan = keyUpdate(
  'libraryAdminSetKeyPlan',
  'plan',
  z.enum(PLAN_NAMES),
  'Set a key’s plan',
  'Moves a key to another plan.',
);

export const libraryAdminSetKeyRpd = keyUpdate(
  'libraryAdminSetKeyRpd',
  'rpd',
  z.preprocess(laxInteger, z.int().min(RPD_OVERRIDE_MIN).max(RPD_OVERRIDE_MAX)).nullable(),
  'Set a key’s daily quota',
  'Sets the key’s own daily quota; null returns it to its plan’s.',
);

export const libraryAdminSetKeyStatus = keyUpdate(
  'libraryAdminSetKeyStatus',
  'status',
  z.enum(KEY_STATUSES),
  'Set a key’s status',
  'Sets a key’s status: active, suspended or revoked; applies to its next call.',
);

export const libraryAdminStats = defineOperation({
  service: 'library',
  name: 'libraryAdminStats',
  kind: 'query',
  summary: 'Key and call statistics',
  description: `Keys by plan and status, calls today, the busiest keys. ${ADMIN}`,
  tags: ['admin'],
  access: adminToken(),
  output: LibraryAdminStats,
  rest: { method: 'GET', path: '/admin/stats', response: AdminStatsWire, respond: (stats) => ({ body: adminStatsBody(stats) }) },
  errors: ERRORS,
});
