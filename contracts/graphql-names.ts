import type { z } from 'zod';
import { kindOf, unwrap } from './schema-shape.js';

/**
 * GraphQL names of contract fields (docs/adr/0040-graphql-naming.md). A schema's keys are
 * its wire names, as the documented REST bodies spell them (`access_token`); GraphQL
 * names every output field, argument and input field in camelCase (`accessToken`). A name
 * released before that rule stays in the graph as a deprecated alias for one release.
 * Enum values are data and keep their spelling.
 */

/** `access_token` → `accessToken`; a camelCase key is its own GraphQL name. */
export const graphqlName = (key: string): string =>
  key.replace(/(?<=[A-Za-z0-9])_+([A-Za-z0-9])/g, (_match, next: string) => next.toUpperCase());

/**
 * Root fields released as an operation of their own that another operation now answers: the
 * signed-in user's twins of the research key operations, now one operation taking either
 * credential (docs/adr/0046). `Query.alias` or `Mutation.alias` → the operation's name; each
 * is answered as a deprecated alias of it until the next release, which empties the list.
 */
export const RELEASED_OPERATION_ALIASES: Readonly<Record<string, string>> = {
  'Query.researchWorkspaceThreads': 'researchThreads',
  'Query.researchWorkspaceThread': 'researchThread',
  'Mutation.researchWorkspaceCreateThread': 'researchCreateThread',
  'Mutation.researchWorkspaceAppendMessage': 'researchAppendMessage',
  'Mutation.researchWorkspaceStartRun': 'researchStartRun',
  'Query.researchWorkspaceRunReport': 'researchRunReport',
  'Query.researchWorkspaceThreadWatch': 'researchThreadWatch',
  'Query.researchWorkspaceBilling': 'researchBilling',
  'Mutation.researchWorkspaceCreateTopUp': 'researchCreateTopUp',
  'Query.researchWorkspaceApiKeys': 'researchApiKeys',
  'Mutation.researchWorkspaceCreateApiKey': 'researchCreateApiKey',
  'Mutation.researchWorkspaceRotateApiKey': 'researchRotateApiKey',
  'Mutation.researchWorkspaceRevokeApiKey': 'researchRevokeApiKey',
};

/** The released root field names an operation answers besides its own (deprecated). */
export function operationAliasesOf(contract: { readonly name: string; readonly kind: string }): string[] {
  const root = contract.kind === 'mutation' ? 'Mutation' : 'Query';
  return Object.entries(RELEASED_OPERATION_ALIASES)
    .filter(([released, name]) => name === contract.name && released.startsWith(`${root}.`))
    .map(([released]) => released.slice(root.length + 1));
}

/** The deprecation of a released root field, naming the operation that answers it now. */
export const operationAliasDeprecation = (name: string): string => `Use ${name}; removed in the next release.`;

/**
 * Names released before the rule (`Type.field`, `rootField(argument)`), answered as
 * deprecated aliases of their camelCase names until the next release, which empties the
 * list. A field added since has its camelCase name only.
 */
export const RELEASED_NAMES: ReadonlySet<string> = new Set([
  'AccountSecurity.allowed_ips',
  'AccountSecurity.backup_codes_left',
  'AccountSecurity.ip_whitelist',
  'AccountSecurity.totp_enabled',
  'AccountSecurity.two_factor_email',
  'ActiveSession.expires_at',
  'ActiveSession.refreshed_at',
  'ActiveSession.started_at',
  'AuthorizationUrl.authorization_url',
  'BackupCodes.backup_codes',
  'iamChangePassword(current_password)',
  'iamChangePassword(new_password)',
  'iamCreateApiKey(expires_in_days)',
  'iamCreateOidcClient(post_logout_redirect_uris)',
  'iamCreateOidcClient(redirect_uris)',
  'iamExternalSignInCallback(error_description)',
  'iamRefresh(refresh_token)',
  'iamRegister(affiliate_code)',
  'iamRegister(challenge_token)',
  'iamRegister(company_size)',
  'iamRegister(default_plan)',
  'iamRegister(heard_about_us)',
  'iamRegister(invitation_code)',
  'iamRegister(management_experience)',
  'iamRegister(referral_code)',
  'iamResendSecondFactor(challenge_id)',
  'iamVerifySecondFactor(challenge_id)',
  'Login.access_token',
  'Login.expires_in',
  'Login.refresh_token',
  'Login.token_type',
  'Login.two_factor',
  'LoginEvent.user_agent',
  'NewOidcClient.client_id',
  'NewOidcClient.client_secret',
  'NewOidcClient.created_at',
  'NewOidcClient.grant_types',
  'NewOidcClient.post_logout_redirect_uris',
  'NewOidcClient.redirect_uris',
  'NewOidcClient.token_endpoint_auth_method',
  'NewOperationsApiKey.api_key',
  'OidcClient.client_id',
  'OidcClient.created_at',
  'OidcClient.grant_types',
  'OidcClient.post_logout_redirect_uris',
  'OidcClient.redirect_uris',
  'OidcClient.token_endpoint_auth_method',
  'OperationsApiKey.created_at',
  'OperationsApiKey.expires_at',
  'OperationsApiKey.last_used_at',
  'OperationsApiKey.organization_id',
  'OperationsApiKey.revoked_at',
  'OperationsApiKey.user_id',
  'Registration.verification_sent',
  'ResearchReportJson.cheapest_test',
  'ResearchReportJson.dont_do_now',
  'ResearchReportJson.main_risk',
  'ResearchReportJson.overall_risk',
  'ResearchReportJson.risk_map',
  'ResearchReportJson.validate_first',
  'ResearchReportJson.why_it_can_crash',
  'ResearchReportJson.why_it_can_fly',
  'ResearchReportJsonCompetitors.app_name',
  'ResearchReportJsonCompetitors.app_store_link',
  'ResearchReportJsonCompetitors.threat_level',
  'ResearchReportJsonRiskMap.app_store',
  'SecondFactorChallenge.challenge_id',
  'SecondFactorChallenge.expires_at',
  'TotpSetup.otpauth_url',
  ...Object.keys(RELEASED_OPERATION_ALIASES),
]);

/** Where a name was released: a field of a type, or an argument of a field. */
export type NameOwner = { readonly type: string } | { readonly field: string };

/** The released name kept as a deprecated alias of a key's GraphQL name, when it differs and was released. */
export function deprecatedAliasOf(owner: NameOwner, key: string): string | undefined {
  if (graphqlName(key) === key) return undefined;
  const released = 'type' in owner ? `${owner.type}.${key}` : `${owner.field}(${key})`;
  return RELEASED_NAMES.has(released) ? key : undefined;
}

/** The deprecation of an alias, naming what replaces it. */
export const aliasDeprecation = (key: string): string => `Use ${graphqlName(key)}; removed in the next release.`;

/** A key given under both its GraphQL name and its deprecated alias. */
export interface NameConflict {
  /** Schema keys (and indexes) down to the object holding the key, then the key. */
  readonly path: ReadonlyArray<string | number>;
  readonly name: string;
  readonly alias: string;
  readonly value: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A GraphQL value (arguments, an input object, or a result) keyed as its schema is: each
 * key read from its GraphQL name, else from its deprecated alias. Keys given both ways are
 * reported in `conflicts` (the GraphQL name wins in the value).
 */
export function fromGraphQLNames(
  schema: z.ZodType,
  value: unknown,
  conflicts: NameConflict[] = [],
  path: Array<string | number> = [],
): unknown {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'list')
    return Array.isArray(value) ? value.map((item, index) => fromGraphQLNames(kind.item, item, conflicts, [...path, index])) : value;
  if (kind.kind !== 'object' || !isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(kind.shape)) {
    const name = graphqlName(key);
    if (name === key) {
      if (value[key] !== undefined) out[key] = fromGraphQLNames(field, value[key], conflicts, [...path, key]);
      continue;
    }
    const given = value[name];
    const aliased = value[key];
    if (given !== undefined && aliased !== undefined) conflicts.push({ path: [...path, key], name, alias: key, value: aliased });
    delete out[name];
    delete out[key];
    const chosen = given !== undefined ? given : aliased;
    if (chosen !== undefined) out[key] = fromGraphQLNames(field, chosen, conflicts, [...path, key]);
  }
  return out;
}

/** A value keyed as its schema is, keyed by GraphQL names (e.g. the variables of a named operation). */
export function toGraphQLNames(schema: z.ZodType, value: unknown): unknown {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'list') return Array.isArray(value) ? value.map((item) => toGraphQLNames(kind.item, item)) : value;
  if (kind.kind !== 'object' || !isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = kind.shape[key];
    out[field ? graphqlName(key) : key] = field ? toGraphQLNames(field, item) : item;
  }
  return out;
}
