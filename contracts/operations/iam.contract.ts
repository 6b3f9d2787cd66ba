import { z } from 'zod';
import { members, OPERATIONS_ROLES, publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { OperationsErrorCode } from './errors.js';
import { cursorPaging, ops } from './fields.js';
import { Jwks, Login, Organization, User } from './iam-types.js';

/** Sign-in, tokens and users (`/api/v1/iam`). The seed leaves these to us; see docs/adr/0008. */

const signedIn = members('any', { objectScope: false, userOnly: true, tenant: false });

export const iamRefresh = defineOperation({
  service: 'operations',
  name: 'iamRefresh',
  kind: 'mutation',
  summary: 'Exchange a refresh token for a new pair',
  description: 'The refresh token is rotated: the old one is spent. Presenting a spent one again revokes every token of its sign-in.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { refresh_token: z.string().min(1).max(200) } },
  output: Login,
  rest: { method: 'POST', path: '/api/v1/iam/refresh', headers: { 'Cache-Control': 'no-store' } },
  errors: [OperationsErrorCode.REFRESH_TOKEN_INVALID, OperationsErrorCode.REFRESH_TOKEN_REUSED],
});

export const iamLogout = defineOperation({
  service: 'operations',
  name: 'iamLogout',
  kind: 'mutation',
  summary: 'Sign out',
  description: 'Revokes the access token presented and its sign-in’s refresh tokens.',
  tags: ['iam'],
  access: signedIn,
  output: z.object({ revoked: z.boolean() }).meta({ id: 'Logout' }),
  rest: { method: 'POST', path: '/api/v1/iam/logout' },
});

export const iamMe = defineOperation({
  service: 'operations',
  name: 'iamMe',
  kind: 'query',
  summary: 'The signed-in user and their organizations',
  tags: ['iam'],
  access: signedIn,
  output: z.object({ user: User, organizations: z.array(Organization) }).meta({ id: 'Me' }),
  rest: { method: 'GET', path: '/api/v1/iam/me' },
});

export const iamCreateUser = defineOperation({
  service: 'operations',
  name: 'iamCreateUser',
  kind: 'mutation',
  summary: 'Create a user',
  description:
    'By an Admin, in the Admin’s own organization; only the super-admin names another (`organizationId`). `objectIds` must be production objects of the organization the user is created in (422 naming `objectIds` otherwise, alike for another organization’s object and a missing one). Without a `password` the user is invited: a link to set one (valid 7 days) is mailed.',
  tags: ['iam'],
  access: members(['Admin'], { objectScope: false, tenant: false }),
  input: {
    body: {
      email: z.email().max(254),
      password: z.string().min(8).max(64).optional(),
      name: ops.text(1, 200),
      roles: z.array(z.enum(OPERATIONS_ROLES)).min(1),
      objectIds: z.array(z.uuid()).default([]),
      organizationId: z.uuid().optional(),
    },
  },
  output: User,
  rest: { method: 'POST', path: '/api/v1/iam/users', status: 201 },
  errors: [OperationsErrorCode.USER_EMAIL_TAKEN, OperationsErrorCode.ORGANIZATION_NOT_FOUND],
});

export const iamListUsers = defineOperation({
  service: 'operations',
  name: 'iamListUsers',
  kind: 'query',
  summary: 'Users of the organization',
  tags: ['iam'],
  access: members(['Admin'], { objectScope: false }),
  output: User,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/iam/users' },
});

export const iamJwks = defineOperation({
  service: 'operations',
  name: 'iamJwks',
  kind: 'query',
  summary: 'Public keys of access tokens (JWKS)',
  tags: ['iam'],
  access: publicAccess(),
  output: Jwks,
  rest: { method: 'GET', path: '/api/v1/iam/jwks' },
});

const banTarget = { path: { id: z.uuid() } };

export const iamBanUser = defineOperation({
  service: 'operations',
  name: 'iamBanUser',
  kind: 'mutation',
  summary: 'Ban a user',
  description:
    'The user can no longer sign in (403 `ACCOUNT_BANNED` after a right password), every token and refresh token of theirs stops working at once, and so do their API keys. An Admin bans users of their organization; the super-admin anyone but themselves.',
  tags: ['iam'],
  access: members(['Admin'], { objectScope: false, tenant: false }),
  input: banTarget,
  output: User,
  rest: { method: 'POST', path: '/api/v1/iam/users/:id/ban' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const iamUpdateUser = defineOperation({
  service: 'operations',
  name: 'iamUpdateUser',
  kind: 'mutation',
  summary: 'Assign roles, production objects and API access to a user',
  description:
    'By an Admin, for a user of their organization (the super-admin: of the organization named in `X-Organization-Id`). `roles` replaces the user’s roles; `objectIds` replaces their production objects, each of which must be a production object of the same organization; `apiAccess: false` turns the user’s API access off (their keys answer 401 from the next call) and `true` on again. Effective on the user’s next request.',
  tags: ['iam'],
  access: members(['Admin'], { objectScope: false }),
  input: {
    path: { id: z.uuid() },
    body: {
      roles: z.array(z.enum(OPERATIONS_ROLES)).min(1).optional(),
      objectIds: z.array(ops.ref('core.production-object', z.uuid())).max(1000).optional(),
      apiAccess: z.boolean().optional(),
    },
  },
  output: User,
  rest: { method: 'PATCH', path: '/api/v1/iam/users/:id' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const iamUnbanUser = defineOperation({
  service: 'operations',
  name: 'iamUnbanUser',
  kind: 'mutation',
  summary: 'Lift a ban',
  tags: ['iam'],
  access: members(['Admin'], { objectScope: false, tenant: false }),
  input: banTarget,
  output: User,
  rest: { method: 'POST', path: '/api/v1/iam/users/:id/unban' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});
