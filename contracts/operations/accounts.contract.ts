import { z } from 'zod';
import { members, publicAccess } from '../access.js';
import type { ErrorKey } from '../errors.js';
import { defineOperation, type Throttle } from '../operation.js';
import { OperationsErrorCode as Code } from './errors.js';
import { cursorPaging, ops } from './fields.js';
import { REGISTER_PAGE_HEADERS, renderRegisterPage } from '../pages/register-page.js';
import {
  Accepted,
  ActiveSession,
  AltchaChallenge,
  AuthorizationUrl,
  BackupCodes,
  Done,
  EmailChanged,
  EmailChangeRequested,
  IdentityProviders,
  Login,
  LoginEvent,
  Profile,
  Registration,
  SecondFactorMethod,
  Security,
  TotpSetup,
} from './iam-types.js';

/**
 * Accounts (seed 001, part C): registration with a bot challenge, e-mail verification,
 * second factor, IP whitelist, password reset, invitations, sign-in history and external
 * identity providers, under `/api/v1/iam`. The seed gives the rules and names an earlier
 * version's paths as references only; these paths are ours (docs/adr/0009). Request fields
 * keep the seed's snake_case names, like the Login response.
 */

const HOUR = 3600;
const QUARTER = 900;
const ip = (limit: number, windowSeconds: number): Throttle => ({ by: 'ip', limit, windowSeconds });
const per = (field: string, limit: number, windowSeconds: number): Throttle => ({ by: { field }, limit, windowSeconds });
/** Attempt limits, and the 429 they answer with. */
const limited = (throttle: Throttle[], errors: ErrorKey[] = []) => ({ throttle, errors: [...errors, Code.ATTEMPTS_LIMITED] });

const signedIn = members('any', { objectScope: false, userOnly: true, tenant: false });
const email = z.email().max(254);
/** Passwords of 8 to 64 characters (part C's login form). */
const password = z.string().min(8).max(64);
const token = z.string().min(20).max(200).describe('The token from the mailed link.');
const noStore = { 'Cache-Control': 'no-store' } as const;

export const iamRegister = defineOperation({
  service: 'operations',
  name: 'iamRegister',
  kind: 'mutation',
  summary: 'Register an account',
  description:
    'Creates an inactive account and mails a verification link valid 24 hours. No organization is created: an Admin adds the user to one, or invites them. `challenge_token` must pass the bot challenge: by default a solved ALTCHA proof of work from `GET /api/v1/iam/challenge`; with `CHALLENGE=turnstile` a Turnstile-compatible widget token; none with `CHALLENGE=off`.',
  tags: ['iam'],
  access: publicAccess(),
  input: {
    body: {
      name: ops.text(1, 200),
      email,
      password,
      challenge_token: z
        .string()
        .max(4096)
        .optional()
        .describe(
          'The solved bot challenge: the ALTCHA widget’s payload (base64 JSON of `{challenge, solution}`), or a Turnstile-compatible token; not needed with `CHALLENGE=off`.',
        ),
      referral_code: z.string().max(100).optional(),
      affiliate_code: z.string().max(100).optional(),
      invitation_code: z.string().max(100).optional(),
      default_plan: z.enum(['free', 'pro', 'enterprise']).optional(),
      company_size: z.string().max(100).optional(),
      industry: z.string().max(100).optional(),
      management_experience: z.string().max(100).optional(),
      heard_about_us: z.string().max(200).optional(),
    },
  },
  output: Registration,
  rest: { method: 'POST', path: '/api/v1/iam/register', status: 201 },
  ...limited([ip(20, HOUR), per('email', 5, HOUR)], [Code.USER_EMAIL_TAKEN, Code.BOT_CHALLENGE_FAILED]),
});

export const iamRegisterPage = defineOperation({
  service: 'operations',
  name: 'iamRegisterPage',
  kind: 'edge',
  summary: 'Registration page',
  description:
    'An HTML form for `POST /api/v1/iam/register` with the ALTCHA widget, which solves the challenge of `GET /api/v1/iam/challenge` in the browser. Everything it loads comes from this origin (a strict Content-Security-Policy).',
  tags: ['iam'],
  access: publicAccess(),
  output: z.string(),
  rest: {
    method: 'GET',
    path: '/api/v1/iam/register',
    contentType: 'text/html',
    respond: () => ({
      type: 'text/html; charset=utf-8',
      headers: REGISTER_PAGE_HEADERS,
      body: renderRegisterPage({ challenge: '/api/v1/iam/challenge', register: '/api/v1/iam/register' }),
    }),
  },
});

export const iamChallenge = defineOperation({
  service: 'operations',
  name: 'iamChallenge',
  kind: 'query',
  summary: 'A bot challenge for registration',
  description:
    'A signed ALTCHA proof-of-work challenge, valid 10 minutes (the widget’s `challengeurl`). Solve it and send the payload as `challenge_token` of `POST /api/v1/iam/register`; each solution is taken once.',
  tags: ['iam'],
  access: publicAccess(),
  output: AltchaChallenge,
  rest: { method: 'GET', path: '/api/v1/iam/challenge', headers: noStore },
  ...limited([ip(60, QUARTER)]),
});

export const iamVerifyEmail = defineOperation({
  service: 'operations',
  name: 'iamVerifyEmail',
  kind: 'mutation',
  summary: 'Verify an e-mail address',
  description: 'The link mailed at registration (valid 24 hours, once); the account can sign in afterwards.',
  tags: ['iam'],
  access: publicAccess(),
  input: { path: { token } },
  output: Done,
  rest: { method: 'GET', path: '/api/v1/iam/verify-email/:token', headers: noStore },
  ...limited([ip(60, HOUR)], [Code.LINK_INVALID]),
});

export const iamResendVerification = defineOperation({
  service: 'operations',
  name: 'iamResendVerification',
  kind: 'mutation',
  summary: 'Mail a new verification link',
  description:
    'For an unverified account a new link (24 hours) replaces the previous one. The answer is the same whether or not the account exists.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { email } },
  output: Accepted,
  rest: { method: 'POST', path: '/api/v1/iam/verify-email/resend', status: 202 },
  ...limited([ip(20, HOUR), per('email', 3, HOUR)]),
});

export const iamLogin = defineOperation({
  service: 'operations',
  name: 'iamLogin',
  kind: 'mutation',
  summary: 'Sign in with e-mail and password',
  description:
    'The e-mail address must be valid and the password 8 to 64 characters long (part C’s login form), else 422. Wrong credentials get one message that never says which part was wrong; unverified and banned accounts get their own (after a right password). With a second factor enabled, every field but `user` and `two_factor` is null: finish at `/api/v1/iam/two-factor/verify`. With the IP whitelist on, an unknown address is refused and an approval link (24 hours) mailed.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { email, password } },
  output: Login,
  rest: { method: 'POST', path: '/api/v1/iam/login', headers: noStore },
  ...limited(
    [ip(200, QUARTER), per('email', 20, QUARTER)],
    [Code.INVALID_CREDENTIALS, Code.EMAIL_NOT_VERIFIED, Code.ACCOUNT_BANNED, Code.IP_NOT_APPROVED],
  ),
});

export const iamVerifySecondFactor = defineOperation({
  service: 'operations',
  name: 'iamVerifySecondFactor',
  kind: 'mutation',
  summary: 'Finish a sign-in with its second factor',
  description:
    'An e-mailed code (valid 10 minutes), an authenticator-app code (`totp`) or a one-time backup code. The pending sign-in allows 5 wrong codes.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { challenge_id: z.uuid(), method: SecondFactorMethod, code: z.string().min(4).max(32) } },
  output: Login,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/verify', headers: noStore },
  ...limited([ip(60, QUARTER)], [Code.SECOND_FACTOR_INVALID, Code.SECOND_FACTOR_CHALLENGE_INVALID, Code.SECOND_FACTOR_METHOD_UNAVAILABLE]),
});

export const iamResendSecondFactor = defineOperation({
  service: 'operations',
  name: 'iamResendSecondFactor',
  kind: 'mutation',
  summary: 'Mail a new sign-in code',
  description: 'A new e-mailed code (10 minutes) for a pending sign-in; the previous code stops working.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { challenge_id: z.uuid() } },
  output: Accepted,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/resend', status: 202 },
  ...limited(
    [ip(20, QUARTER), per('challenge_id', 3, QUARTER)],
    [Code.SECOND_FACTOR_CHALLENGE_INVALID, Code.SECOND_FACTOR_METHOD_UNAVAILABLE],
  ),
});

export const iamForgotPassword = defineOperation({
  service: 'operations',
  name: 'iamForgotPassword',
  kind: 'mutation',
  summary: 'Mail a password-reset link',
  description: 'The link is valid 60 minutes. The answer is the same whether or not the account exists.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { email } },
  output: Accepted,
  rest: { method: 'POST', path: '/api/v1/iam/forgot-password', status: 202 },
  ...limited([ip(20, HOUR), per('email', 3, HOUR)]),
});

export const iamResetPassword = defineOperation({
  service: 'operations',
  name: 'iamResetPassword',
  kind: 'mutation',
  summary: 'Set a new password from a reset link',
  description: 'Signs the account out of every device: all its access and refresh tokens are revoked.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { token, password } },
  output: Done,
  rest: { method: 'POST', path: '/api/v1/iam/reset-password', headers: noStore },
  ...limited([ip(20, HOUR)], [Code.LINK_INVALID]),
});

export const iamSetPassword = defineOperation({
  service: 'operations',
  name: 'iamSetPassword',
  kind: 'mutation',
  summary: 'Set the password of an invited user',
  description:
    'The invitation link (valid 7 days) an Admin’s `POST /api/v1/iam/users` without a password mails; it also verifies the e-mail address.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { token, password } },
  output: Done,
  rest: { method: 'POST', path: '/api/v1/iam/password-set', headers: noStore },
  ...limited([ip(20, HOUR)], [Code.LINK_INVALID]),
});

export const iamApproveIp = defineOperation({
  service: 'operations',
  name: 'iamApproveIp',
  kind: 'mutation',
  summary: 'Approve a new address for sign-in',
  description: 'The link mailed when a sign-in came from an address outside the account’s whitelist (valid 24 hours, once).',
  tags: ['iam'],
  access: publicAccess(),
  input: { path: { token } },
  output: z.object({ done: z.literal(true), ip: z.string().nullable() }).meta({ id: 'IpApproval' }),
  rest: { method: 'GET', path: '/api/v1/iam/ip-approvals/:token', headers: noStore },
  ...limited([ip(20, HOUR)], [Code.LINK_INVALID]),
});

export const iamSecurity = defineOperation({
  service: 'operations',
  name: 'iamSecurity',
  kind: 'query',
  summary: 'Second-factor and IP-whitelist settings',
  tags: ['iam'],
  access: signedIn,
  output: Security,
  rest: { method: 'GET', path: '/api/v1/iam/security' },
});

export const iamSetupTotp = defineOperation({
  service: 'operations',
  name: 'iamSetupTotp',
  kind: 'mutation',
  summary: 'Start authenticator-app setup',
  description: 'A new secret (stored encrypted); it takes effect once a code from it is confirmed at `/api/v1/iam/two-factor/totp/enable`.',
  tags: ['iam'],
  access: signedIn,
  output: TotpSetup,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/totp/setup', headers: noStore },
  errors: [Code.STATE_CONFLICT],
});

export const iamEnableTotp = defineOperation({
  service: 'operations',
  name: 'iamEnableTotp',
  kind: 'mutation',
  summary: 'Confirm the authenticator app and turn it on',
  description: 'Returns ten one-time backup codes, shown once (replacing any earlier ones).',
  tags: ['iam'],
  access: signedIn,
  input: { body: { code: z.string().regex(/^\d{6}$/, 'must be 6 digits') } },
  output: BackupCodes,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/totp/enable', headers: noStore },
  errors: [Code.TOTP_NOT_PENDING, Code.TOTP_CODE_INVALID],
});

export const iamDisableTotp = defineOperation({
  service: 'operations',
  name: 'iamDisableTotp',
  kind: 'mutation',
  summary: 'Turn the authenticator app off',
  description: 'Confirmed with the current password.',
  tags: ['iam'],
  access: signedIn,
  input: { body: { password: z.string().min(1).max(1024) } },
  output: Security,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/totp/disable' },
  errors: [Code.PASSWORD_WRONG],
});

export const iamSetEmailSecondFactor = defineOperation({
  service: 'operations',
  name: 'iamSetEmailSecondFactor',
  kind: 'mutation',
  summary: 'Turn e-mailed sign-in codes on or off',
  description: 'Confirmed with the current password.',
  tags: ['iam'],
  access: signedIn,
  input: { body: { enabled: z.boolean(), password: z.string().min(1).max(1024) } },
  output: Security,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/email' },
  errors: [Code.PASSWORD_WRONG],
});

export const iamRegenerateBackupCodes = defineOperation({
  service: 'operations',
  name: 'iamRegenerateBackupCodes',
  kind: 'mutation',
  summary: 'New backup codes',
  description: 'Ten new one-time codes, shown once; the earlier ones stop working. Needs a second factor enabled.',
  tags: ['iam'],
  access: signedIn,
  input: { body: { password: z.string().min(1).max(1024) } },
  output: BackupCodes,
  rest: { method: 'POST', path: '/api/v1/iam/two-factor/backup-codes', headers: noStore },
  errors: [Code.PASSWORD_WRONG, Code.SECOND_FACTOR_METHOD_UNAVAILABLE],
});

export const iamSetIpWhitelist = defineOperation({
  service: 'operations',
  name: 'iamSetIpWhitelist',
  kind: 'mutation',
  summary: 'Turn the IP whitelist on or off',
  description: 'Turning it on approves the address of this request, so the account is not locked out.',
  tags: ['iam'],
  access: signedIn,
  input: { body: { enabled: z.boolean() } },
  output: Security,
  rest: { method: 'POST', path: '/api/v1/iam/ip-whitelist' },
});

export const iamRemoveAllowedIp = defineOperation({
  service: 'operations',
  name: 'iamRemoveAllowedIp',
  kind: 'mutation',
  summary: 'Remove an approved address',
  tags: ['iam'],
  access: signedIn,
  input: { path: { ip: z.string().min(2).max(64) } },
  output: Security,
  rest: { method: 'DELETE', path: '/api/v1/iam/ip-whitelist/:ip' },
});

export const iamLoginHistory = defineOperation({
  service: 'operations',
  name: 'iamLoginHistory',
  kind: 'query',
  summary: 'Sign-in history of the account',
  description: 'Newest first: address, browser, method and outcome of every attempt, refused ones included.',
  tags: ['iam'],
  access: signedIn,
  output: LoginEvent,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/iam/login-history' },
});

export const iamChangePassword = defineOperation({
  service: 'operations',
  name: 'iamChangePassword',
  kind: 'mutation',
  summary: 'Change the password',
  description: 'Confirmed with the current password. Every other session of the account is signed out; this one stays.',
  tags: ['iam'],
  access: signedIn,
  input: { body: { current_password: z.string().min(1).max(1024), new_password: password } },
  output: Done,
  rest: { method: 'POST', path: '/api/v1/iam/password', headers: noStore },
  errors: [Code.PASSWORD_WRONG],
});

export const iamProfile = defineOperation({
  service: 'operations',
  name: 'iamProfile',
  kind: 'query',
  summary: 'The signed-in user’s profile',
  description: 'The name, the registration answers and the e-mail address, with a change of address waiting for its confirmation.',
  tags: ['iam'],
  access: signedIn,
  output: Profile,
  rest: { method: 'GET', path: '/api/v1/iam/profile' },
});

const answer = (max: number) => z.string().trim().min(1).max(max).nullable().optional();

export const iamUpdateProfile = defineOperation({
  service: 'operations',
  name: 'iamUpdateProfile',
  kind: 'mutation',
  summary: 'Edit the signed-in user’s profile',
  description:
    'Changes the fields sent; `null` clears a registration answer. The e-mail address changes through `POST /api/v1/iam/email`, the password through `POST /api/v1/iam/password`.',
  tags: ['iam'],
  access: signedIn,
  input: {
    body: {
      name: ops.text(1, 200).optional(),
      default_plan: z.enum(['free', 'pro', 'enterprise']).nullable().optional(),
      company_size: answer(100),
      industry: answer(100),
      management_experience: answer(100),
      heard_about_us: answer(200),
    },
  },
  output: Profile,
  rest: { method: 'PATCH', path: '/api/v1/iam/profile' },
});

export const iamChangeEmail = defineOperation({
  service: 'operations',
  name: 'iamChangeEmail',
  kind: 'mutation',
  summary: 'Ask to change the e-mail address',
  description:
    'Confirmed with the current password. A link valid 24 hours goes to the new address and the change takes effect only when it is followed; a notice without any link goes to the current address. A newer request replaces an older one.',
  tags: ['iam'],
  access: signedIn,
  input: { body: { new_email: email, password: z.string().min(1).max(1024) } },
  output: EmailChangeRequested,
  rest: { method: 'POST', path: '/api/v1/iam/email', status: 202, headers: noStore },
  ...limited([ip(20, HOUR), per('new_email', 5, HOUR)], [Code.PASSWORD_WRONG, Code.USER_EMAIL_TAKEN]),
});

export const iamConfirmEmailChange = defineOperation({
  service: 'operations',
  name: 'iamConfirmEmailChange',
  kind: 'mutation',
  summary: 'Confirm a new e-mail address',
  description:
    'The link mailed to the new address (valid 24 hours, once). The address must still be free; the previous address is told of the change.',
  tags: ['iam'],
  access: publicAccess(),
  input: { path: { token } },
  output: EmailChanged,
  rest: { method: 'GET', path: '/api/v1/iam/email-changes/:token', headers: noStore },
  ...limited([ip(60, HOUR)], [Code.LINK_INVALID, Code.USER_EMAIL_TAKEN]),
});

export const iamSessions = defineOperation({
  service: 'operations',
  name: 'iamSessions',
  kind: 'query',
  summary: 'Active sessions of the account',
  description:
    'Every sign-in whose refresh token is still usable, most recently refreshed first, in cursor pages; the one of this request is marked `current`.',
  tags: ['iam'],
  access: signedIn,
  output: ActiveSession,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/iam/sessions' },
});

export const iamRevokeSession = defineOperation({
  service: 'operations',
  name: 'iamRevokeSession',
  kind: 'mutation',
  summary: 'Sign out one session',
  description: 'Its refresh token and the access token issued with it stop working at once.',
  tags: ['iam'],
  access: signedIn,
  input: { path: { id: z.uuid() } },
  output: Done,
  rest: { method: 'DELETE', path: '/api/v1/iam/sessions/:id' },
  errors: [Code.RECORD_NOT_FOUND],
});

export const iamRevokeOtherSessions = defineOperation({
  service: 'operations',
  name: 'iamRevokeOtherSessions',
  kind: 'mutation',
  summary: 'Sign out every other session',
  description:
    'Every session of the account but the one of this request stops working at once (end this one with `POST /api/v1/iam/logout`).',
  tags: ['iam'],
  access: signedIn,
  output: Done,
  rest: { method: 'DELETE', path: '/api/v1/iam/sessions' },
});

export const iamIdentityProviders = defineOperation({
  service: 'operations',
  name: 'iamIdentityProviders',
  kind: 'query',
  summary: 'External identity providers',
  description: 'OpenID Connect providers configured with `OIDC_PROVIDERS` (at most two).',
  tags: ['iam'],
  access: publicAccess(),
  output: IdentityProviders,
  rest: { method: 'GET', path: '/api/v1/iam/identity-providers' },
});

export const iamStartExternalSignIn = defineOperation({
  service: 'operations',
  name: 'iamStartExternalSignIn',
  kind: 'mutation',
  summary: 'Start signing in with an external identity provider',
  description:
    'Returns the provider’s authorization address (authorization code with PKCE). The provider sends the browser back to `/api/v1/iam/identity-providers/{provider}/callback`, which redirects to `/{locale}/login?code=…` (exchange the code at `/api/v1/iam/identity-providers/exchange`) or `/{locale}/login?error=…`; `next` is kept only when it is a same-origin path.',
  tags: ['iam'],
  access: publicAccess(),
  input: {
    path: { provider: z.string().min(1).max(64) },
    body: {
      locale: z
        .string()
        .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language tag like en or ar-SA')
        .default('en'),
      next: z.string().max(500).optional().describe('Where to go after sign-in: a path on this site (`/…`, not `//…`).'),
    },
  },
  output: AuthorizationUrl,
  rest: { method: 'POST', path: '/api/v1/iam/identity-providers/:provider/authorization' },
  ...limited([ip(60, QUARTER)], [Code.IDENTITY_PROVIDER_UNKNOWN, Code.IDENTITY_PROVIDER_UNAVAILABLE]),
});

/** Where an external sign-in's callback sends the browser. */
export const ExternalRedirect = z.object({ location: z.string() }).meta({ id: 'ExternalSignInRedirect' });

export const EXTERNAL_SIGN_IN_ERRORS = {
  provider_disabled: 'the provider is not configured',
  consent_cancelled: 'the user cancelled at the provider',
  email_missing: 'the provider shared no verified e-mail address',
  state_mismatch: 'the sign-in was not started here, was used already or is older than 10 minutes',
  provider_error: 'the provider answered with an error or an invalid token',
  account_banned: 'the account is banned',
  ip_not_approved: 'the address is not approved; an approval link was mailed',
} as const;

export const iamExternalSignInCallback = defineOperation({
  service: 'operations',
  name: 'iamExternalSignInCallback',
  kind: 'mutation',
  summary: 'Return from an external identity provider',
  description: `Redirects (302) to \`/{locale}/login?code=…\` on success, else to \`/{locale}/login?error=<code>\` with one of: ${Object.entries(
    EXTERNAL_SIGN_IN_ERRORS,
  )
    .map(([code, meaning]) => `\`${code}\` (${meaning})`)
    .join(', ')}. A new e-mail registers an account; a known one is linked.`,
  tags: ['iam'],
  access: publicAccess(),
  input: {
    path: { provider: z.string().min(1).max(64) },
    query: {
      code: z.string().max(2048).optional(),
      state: z.string().max(200).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(2000).optional(),
      iss: z.string().max(500).optional(),
    },
  },
  output: ExternalRedirect,
  rest: {
    method: 'GET',
    path: '/api/v1/iam/identity-providers/:provider/callback',
    status: 302,
    respond: (data) => ({ status: 302, headers: { Location: data.location, 'Cache-Control': 'no-store' }, body: '', type: 'text/plain' }),
    response: z.string().describe('Empty; see the `Location` header.'),
    contentType: 'text/plain',
  },
});

export const iamExchangeExternalSignIn = defineOperation({
  service: 'operations',
  name: 'iamExchangeExternalSignIn',
  kind: 'mutation',
  summary: 'Exchange an external sign-in’s code for a session',
  description:
    'The one-time `code` of the login redirect (valid 2 minutes). Like password sign-in, the answer may be a pending second factor.',
  tags: ['iam'],
  access: publicAccess(),
  input: { body: { code: z.string().min(20).max(200) } },
  output: Login,
  rest: { method: 'POST', path: '/api/v1/iam/identity-providers/exchange', headers: noStore },
  ...limited([ip(60, QUARTER)], [Code.LINK_INVALID]),
});

export const ACCOUNT_CONTRACTS = [
  iamRegister,
  iamRegisterPage,
  iamChallenge,
  iamVerifyEmail,
  iamResendVerification,
  iamLogin,
  iamVerifySecondFactor,
  iamResendSecondFactor,
  iamForgotPassword,
  iamResetPassword,
  iamSetPassword,
  iamApproveIp,
  iamSecurity,
  iamSetupTotp,
  iamEnableTotp,
  iamDisableTotp,
  iamSetEmailSecondFactor,
  iamRegenerateBackupCodes,
  iamSetIpWhitelist,
  iamRemoveAllowedIp,
  iamLoginHistory,
  iamChangePassword,
  iamProfile,
  iamUpdateProfile,
  iamChangeEmail,
  iamConfirmEmailChange,
  iamSessions,
  iamRevokeSession,
  iamRevokeOtherSessions,
  iamIdentityProviders,
  iamStartExternalSignIn,
  iamExternalSignInCallback,
  iamExchangeExternalSignIn,
];
