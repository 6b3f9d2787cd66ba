import { z } from 'zod';
import { API_KEY_SCOPES, OPERATIONS_ROLES } from '../access.js';

/** Users, organizations and tokens of the operations service. */

export const OperationsRole = z.enum(OPERATIONS_ROLES).meta({ id: 'OperationsRole', description: 'A role within an organization.' });

export const OrganizationPlan = z
  .enum(['free', 'pro', 'enterprise'])
  .meta({ id: 'OrganizationPlan', description: 'Sets the daily quota of the organization’s API keys.' });

export const Organization = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    status: z.enum(['active', 'deactivated']).meta({ id: 'OrganizationStatus' }),
    plan: OrganizationPlan,
    createdAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'Organization', description: 'A tenant: every record belongs to one.' });

export const User = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    organizationId: z.uuid().nullable().describe('Null for the platform super-admin.'),
    roles: z.array(OperationsRole),
    objectIds: z.array(z.uuid()).describe('Production objects an object-scoped role (Foreman, Mechanic) is limited to.'),
    superAdmin: z.boolean(),
    active: z.boolean(),
    emailVerified: z.boolean().describe('Until it is, the account cannot sign in.'),
    bannedAt: z.string().nullable().describe('ISO 8601; a banned user cannot sign in and their tokens and keys stop working.'),
    apiAccess: z.boolean().describe('Whether the user’s API keys work; an Admin switches it (off refuses them at once).'),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .meta({
    id: 'User',
    key: 'id',
    description:
      'A Qantara account (operations’ identity service); never its password or tokens. An entity: research and the library add their fields to it.',
  });

export const SECOND_FACTOR_METHODS = ['email', 'totp', 'backup_code'] as const;
export const SecondFactorMethod = z
  .enum(SECOND_FACTOR_METHODS)
  .meta({ id: 'SecondFactorMethod', description: 'An e-mailed code, an authenticator-app (TOTP) code, or a backup code.' });

export const SecondFactorChallenge = z
  .object({
    challenge_id: z.uuid().describe('Send it with the code to `/api/v1/iam/two-factor/verify`.'),
    methods: z.array(SecondFactorMethod).describe('The methods the account has enabled.'),
    expires_at: z.string().describe('ISO 8601; the pending sign-in lasts 10 minutes and allows 5 wrong codes.'),
  })
  .meta({ id: 'SecondFactorChallenge', description: 'A sign-in waiting for its second factor.' });

export const Login = z
  .object({
    access_token: z.string().nullable().describe('A JWT (15 days); send it as `Authorization: Bearer …`.'),
    token_type: z.literal('Bearer').nullable(),
    expires_in: z.int().nullable().describe('Seconds the access token is valid for.'),
    refresh_token: z.string().nullable().describe('Opaque (30 days); exchange it once at `/api/v1/iam/refresh` for a new pair.'),
    user: User,
    organizations: z.array(Organization).nullable(),
    two_factor: SecondFactorChallenge.nullable().describe(
      'Set while a second factor is pending (every other field but `user` is null then).',
    ),
  })
  .meta({ id: 'Login', description: 'A signed-in session, or a sign-in waiting for its second factor.' });

export const Jwks = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: 'Jwks', description: 'The public keys access tokens are signed with (RFC 7517).' });

export const Accepted = z.object({ accepted: z.literal(true) }).meta({
  id: 'Accepted',
  description: 'The request was taken; if it applies, an e-mail is on its way (it never says whether an account exists).',
});

export const Registration = z
  .object({ user: User, verification_sent: z.boolean() })
  .meta({ id: 'Registration', description: 'A new, unverified account; the verification link (24 h) was mailed.' });

export const AltchaChallenge = z
  .object({
    parameters: z
      .object({
        algorithm: z.string(),
        nonce: z.string(),
        salt: z.string(),
        cost: z.int(),
        keyLength: z.int(),
        keyPrefix: z.string(),
        keySignature: z.string(),
        expiresAt: z.int().describe('Epoch seconds after which the challenge is refused.'),
      })
      .meta({ id: 'AltchaChallengeParameters' }),
    signature: z.string(),
  })
  .meta({ id: 'AltchaChallenge', description: 'An ALTCHA proof-of-work challenge (version 2), signed by the service.' });

export const ActiveSession = z
  .object({
    id: z.uuid().describe('The sign-in; revoke it at `DELETE /api/v1/iam/sessions/{id}`.'),
    started_at: z.string().describe('ISO 8601: the sign-in.'),
    refreshed_at: z.string().describe('ISO 8601: the latest token pair issued to it.'),
    expires_at: z.string().describe('ISO 8601: when its refresh token runs out.'),
    current: z.boolean().describe('The session of this request.'),
  })
  .meta({ id: 'ActiveSession', description: 'A sign-in whose refresh token is still usable.' });

export const Done = z.object({ done: z.literal(true) }).meta({ id: 'Done', description: 'The action took effect.' });

export const TotpSetup = z
  .object({
    secret: z.string().describe('Base32; enter it in the authenticator app, or scan `otpauth_url` as a QR code.'),
    otpauth_url: z.string(),
  })
  .meta({ id: 'TotpSetup', description: 'A new authenticator secret, enabled once a code from it is confirmed.' });

export const BackupCodes = z
  .object({ backup_codes: z.array(z.string()).describe('Ten one-time codes, shown once; only their hashes are kept.') })
  .meta({ id: 'BackupCodes' });

export const Security = z
  .object({
    two_factor_email: z.boolean(),
    totp_enabled: z.boolean(),
    backup_codes_left: z.int(),
    ip_whitelist: z.boolean(),
    allowed_ips: z.array(z.string()),
  })
  .meta({ id: 'AccountSecurity', description: 'The second-factor and IP-whitelist settings of the signed-in account.' });

export const LoginEvent = z
  .object({
    id: z.uuid(),
    at: z.string().describe('ISO 8601.'),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    method: z.string().describe('`password`, `oidc:<provider>`, `second_factor:<method>`, `refresh`.'),
    outcome: z
      .string()
      .describe(
        '`success`, `second_factor_pending`, `invalid_credentials`, `email_not_verified`, `banned`, `ip_blocked`, `second_factor_failed`.',
      ),
  })
  .meta({ id: 'LoginEvent', description: 'One sign-in attempt of the account (history).' });

/** What a user tells about themselves at registration and may change afterwards (seed 001, part C). */
export const PROFILE_ANSWERS = ['default_plan', 'company_size', 'industry', 'management_experience', 'heard_about_us'] as const;

export const Profile = z
  .object({
    id: z.uuid(),
    email: z.string().describe('Changed only through `POST /api/v1/iam/email` and the link mailed to the new address.'),
    pending_email: z.string().nullable().describe('An address waiting for its confirmation link (valid 24 hours), or null.'),
    email_verified: z.boolean(),
    name: z.string(),
    default_plan: z.enum(['free', 'pro', 'enterprise']).nullable(),
    company_size: z.string().nullable(),
    industry: z.string().nullable(),
    management_experience: z.string().nullable(),
    heard_about_us: z.string().nullable(),
    created_at: z.string().describe('ISO 8601.'),
  })
  .meta({
    id: 'Profile',
    description:
      'What the signed-in user may read and edit about themselves: the name and the registration answers. Roles, production objects and API access are an Admin’s (`PATCH /api/v1/iam/users/{id}`).',
  });

export const EmailChangeRequested = z
  .object({
    accepted: z.literal(true),
    pending_email: z.string().describe('The new address; the change takes effect when its mailed link is followed.'),
  })
  .meta({
    id: 'EmailChangeRequested',
    description: 'A confirmation link (24 hours, once) went to the new address, a notice to the current one.',
  });

export const EmailChanged = z
  .object({ done: z.literal(true), email: z.string().describe('The account’s address from now on (verified by the link).') })
  .meta({ id: 'EmailChanged' });

export const IdentityProviders = z
  .object({ providers: z.array(z.object({ name: z.string(), issuer: z.string() }).meta({ id: 'IdentityProvider' })) })
  .meta({ id: 'IdentityProviders', description: 'External OpenID Connect providers users may sign in with.' });

export const AuthorizationUrl = z
  .object({ authorization_url: z.string().describe('Send the browser here; the provider returns to our callback.') })
  .meta({ id: 'AuthorizationUrl' });

export const ApiKeyScope = z.enum(API_KEY_SCOPES).meta({ id: 'ApiKeyScope', description: 'What an `X-API-Key` may do (seed part B).' });

export const ApiKey = z
  .object({
    id: z.uuid(),
    label: z.string(),
    prefix: z.string().describe('The first 12 characters of the key, to recognise it.'),
    scopes: z.array(ApiKeyScope),
    user_id: z.uuid().describe('The owner: the key never does more than their roles allow.'),
    organization_id: z.uuid(),
    expires_at: z.string().describe('ISO 8601.'),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
    status: z.enum(['active', 'expired', 'revoked']).meta({ id: 'ApiKeyStatus' }),
  })
  .meta({ id: 'OperationsApiKey', description: 'A business API key (`X-API-Key`); never its secret.' });

export const NewApiKey = z
  .object({ key: z.string().describe('The secret, shown this once: only its SHA-256 is kept.'), api_key: ApiKey })
  .meta({ id: 'NewOperationsApiKey' });

export type OrganizationData = z.output<typeof Organization>;
export type UserData = z.output<typeof User>;
export type LoginData = z.output<typeof Login>;
export type SecondFactorMethodName = (typeof SECOND_FACTOR_METHODS)[number];
export type ApiKeyData = z.output<typeof ApiKey>;
export type ProfileData = z.output<typeof Profile>;
