/**
 * The process configuration, read once from the environment and validated before
 * anything starts. A bad value stops the process with one line naming the variable.
 */

import { availableParallelism } from 'node:os';

export const SUBGRAPH_NAMES = ['library', 'research', 'operations'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

export type Role = 'all' | 'gateway' | 'worker' | `subgraph:${SubgraphName}`;
const ROLES: readonly Role[] = ['all', 'gateway', 'worker', ...SUBGRAPH_NAMES.map((name) => `subgraph:${name}` as const)];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly role: Role;
  readonly port: number;
  /** Host the HTTP server binds; all interfaces unless set. */
  readonly host: string;
  readonly publicBaseUrl: string | undefined;
  /** `{site_url}`: the site (discovery documents, the workspace API `{site_url}/api/chat` and its tokens' audience); default `PUBLIC_BASE_URL`. */
  readonly siteBaseUrl: string | undefined;
  /** `{api_url}`: the REST and MCP endpoints; default `PUBLIC_BASE_URL`. */
  readonly apiBaseUrl: string | undefined;
  /**
   * Origins a browser may call the MCP endpoints from, besides those of the site and API
   * base URLs (and of the bound address when no base URL is set); a request with any
   * other `Origin` is refused (DNS rebinding).
   */
  readonly mcpAllowedOrigins: readonly string[];
  /**
   * Browser origins allowed to call the REST, GraphQL and MCP routes across origins
   * (`CORS_ORIGINS`): those named exactly may send credentials; a `*` entry admits any other
   * origin without credentials. Empty: no CORS headers at all.
   */
  readonly corsOrigins: readonly string[];
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly adminToken: string | undefined;
  readonly meiliHost: string | undefined;
  readonly meiliApiKey: string | undefined;
  readonly redisUrl: string | undefined;
  /**
   * Whether this process runs the queue consumers (saga steps, research turns and runs): on in
   * `ROLE=all` unless `QUEUE_CONSUMERS=false`, which leaves the jobs to `ROLE=worker` processes;
   * always on in `ROLE=worker`, never in the other roles.
   */
  readonly queueConsumers: boolean;
  /**
   * How many HTTP worker processes `ROLE=all` runs on one port (`WEB_CONCURRENCY`, default the
   * number of cores); 1 is one process doing everything. Other roles run one process each.
   */
  readonly webConcurrency: number;
  readonly llmBaseUrl: string | undefined;
  readonly llmApiKey: string | undefined;
  readonly llmModel: string | undefined;
  /** How long the LLM upstream may stay silent (before its first byte, and between chunks). */
  readonly llmTimeoutMs: number;
  readonly stripeSecretKey: string | undefined;
  readonly stripeWebhookSecret: string | undefined;
  /** Where the Stripe SDK sends API calls (default Stripe's own); for a proxy or a test double. */
  readonly stripeApiUrl: string | undefined;
  readonly logLevel: LogLevel;
  /**
   * Share of successful requests (status below 500) that get an access-log line
   * (`ACCESS_LOG_SAMPLE`, 0 to 1); every 5xx answer is logged whatever it says.
   */
  readonly accessLogSample: number;
  /**
   * Whether the gateway merges identical subgraph queries in flight at once (`GRAPHQL_DEDUPLICATE`):
   * same subgraph, same document, same variables, same forwarded headers; never mutations.
   */
  readonly graphqlDeduplicate: boolean;
  /** A file the REST facade appends every error answer its contract does not declare to (tests; off when unset). */
  readonly declaredErrorsLog: string | undefined;
  readonly subgraphUrls: Readonly<Partial<Record<SubgraphName, string>>>;
  /** How long SIGTERM waits for in-flight requests before closing connections. */
  readonly shutdownTimeoutMs: number;
  /** Load the demo library on first start with an empty library. */
  readonly demoLibrary: boolean;
  /**
   * Whom the edge believes about the client's address: `false`, the socket's peer; `true`, the
   * first `X-Forwarded-For` entry; a number, the entry that many proxies from the right (Koa's
   * `proxy` and `maxIpsCount`).
   */
  readonly trustProxy: boolean | number;
  /** Shared by the gateway and subgraph servers: a subgraph server answers only requests carrying it. */
  readonly subgraphSecret: string | undefined;
  /** Key of secrets kept encrypted at rest (signing keys, second-factor secrets); generated into `DATA_DIR` when unset. */
  readonly secretsKey: string | undefined;
  /** The platform super-admin created at first start when both are set. */
  readonly opsSuperadminEmail: string | undefined;
  readonly opsSuperadminPassword: string | undefined;
  /**
   * Load the demo organization (one user per role with a fixed password, objects, reference
   * books) on first start; by default only with the embedded database (no `DATABASE_URL`).
   */
  readonly demoOperations: boolean;
  /**
   * With the demo organization, make its working records through the operations (assets, a fuel
   * tank, personnel, a brigade, a supplier, stock, a draft shift report); on by default on the
   * embedded database only.
   */
  readonly demoOperationsRecords: boolean;
  /** Create the demo research workspace (test key printed once, test credits) on first start; the same default. */
  readonly demoResearch: boolean;
  /**
   * Whether webhook endpoints may target loopback, private, link-local and other internal
   * addresses (`WEBHOOK_ALLOW_PRIVATE`); off, they are refused at creation and at every delivery.
   */
  readonly webhookAllowPrivate: boolean;
  /** Days delivered outbox events are kept before they are pruned (`OUTBOX_RETENTION_DAYS`). */
  readonly outboxRetentionDays: number;
  /** `smtp(s)://user:pass@host:port`; unset: mail is written as `.eml` files under `DATA_DIR/mail`. */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /**
   * The bot challenge of registration (`CHALLENGE`): `altcha`, a self-hosted proof of work
   * (the default without `CHALLENGE_SECRET`); `turnstile`, a Turnstile-compatible `siteverify`
   * check (the default with it); `off`, none (tests, closed installations).
   */
  readonly challenge: 'altcha' | 'turnstile' | 'off';
  /** Secret of the Turnstile-compatible bot challenge. */
  readonly challengeSecret: string | undefined;
  /** The challenge's `siteverify` endpoint. */
  readonly challengeVerifyUrl: string;
  /** External OpenID providers people may sign in with. */
  readonly oidcProviders: readonly OidcProviderConfig[];
  /** An S3-compatible object store for documents; unset, they are kept under `DATA_DIR/documents`. */
  readonly s3: S3Config | undefined;
  /** ClamAV's `clamd` (`tcp://host:port`) scanning uploads; unset, a built-in scanner that knows the EICAR test file. */
  readonly clamdUrl: string | undefined;
  /** Whether the research workspace API (`/api/chat/…`) trusts access tokens of our own OpenID provider (`<origin>/oidc`). */
  readonly workspaceOwnIssuer: boolean;
  /** Other OpenID issuers whose access tokens the research workspace API trusts. */
  readonly workspaceIssuers: readonly WorkspaceIssuerConfig[];
  /**
   * Live credits a signed-in user's workspace gets when their first call creates it: by
   * default `DEMO_WELCOME_CREDITS` while the demo is on and no LLM is configured (credits then
   * buy only the built-in offline assistant and researcher, which cost nothing), else 0.
   */
  readonly researchWelcomeCredits: number;
  /** The identity provider the console at `/app` signs people in with; unset, our own with its built-in console client. */
  readonly console: ConsoleSignIn | undefined;
}

/** A trusted issuer of workspace access tokens (`WORKSPACE_ISSUERS`). */
export interface WorkspaceIssuerConfig {
  /** Exactly as its tokens' `iss` says. */
  readonly issuer: string;
  /** The `aud` its tokens must carry; default the workspace API's resource, `{site_url}/api/chat` (runtime/workspace-resource.ts). */
  readonly audience?: string;
  /** The JWKS address, when not the one its discovery document names. */
  readonly jwksUri?: string;
  /** The JOSE `typ` its access tokens carry (default `at+jwt`); `false` when it sets none or another. */
  readonly tokenType?: string | false;
}

/** `CONSOLE_ISSUER`, `CONSOLE_CLIENT_ID`, `CONSOLE_SCOPE`: where the console signs people in. */
export interface ConsoleSignIn {
  readonly issuer: string;
  readonly clientId: string;
  readonly scope: string;
}

export interface OidcProviderConfig {
  /** Path segment, e.g. `google`. */
  readonly name: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface S3Config {
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** What a signed-in user's new workspace gets on default settings (demo on, no LLM), so the console works at once. */
export const DEMO_WELCOME_CREDITS = 300;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function fraction(env: Env, name: string, fallback: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(raw)) throw new ConfigError(name, `must be a number from 0 to 1 (got "${raw}")`);
  return Number(raw);
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      name,
      `must use ${protocols.map((p) => p.replace(':', '')).join(' or ')} (got "${parsed.protocol.replace(':', '')}")`,
    );
  }
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function trustProxy(env: Env): boolean | number {
  const raw = optional(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined || ['false', 'no', '0'].includes(raw)) return false;
  if (['true', 'yes'].includes(raw)) return true;
  if (/^\d+$/.test(raw) && Number(raw) <= 100) return Number(raw);
  throw new ConfigError('TRUST_PROXY', `must be true, false or a number of proxies from 0 to 100 (got "${raw}")`);
}

function secret(env: Env, name: string): string | undefined {
  const value = optional(env, name);
  if (value !== undefined && value.length < 16) throw new ConfigError(name, 'must be at least 16 characters long');
  return value;
}

/** 32 bytes, base64 or hex. */
function secretsKey(env: Env): string | undefined {
  const raw = optional(env, 'SECRETS_KEY');
  if (raw === undefined) return undefined;
  const bytes = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new ConfigError('SECRETS_KEY', 'must be 32 bytes, as 64 hex digits or base64');
  return raw;
}

/** `CHALLENGE`: ALTCHA unless a Turnstile secret is set; `turnstile` needs `CHALLENGE_SECRET`. */
function challenge(env: Env): Config['challenge'] {
  const secret = optional(env, 'CHALLENGE_SECRET');
  const chosen = oneOf(env, 'CHALLENGE', ['altcha', 'turnstile', 'off'] as const, secret ? 'turnstile' : 'altcha');
  if (chosen === 'turnstile' && !secret) throw new ConfigError('CHALLENGE', 'turnstile needs CHALLENGE_SECRET');
  return chosen;
}

function superAdmin(env: Env): Pick<Config, 'opsSuperadminEmail' | 'opsSuperadminPassword'> {
  const email = optional(env, 'OPS_SUPERADMIN_EMAIL');
  const password = env.OPS_SUPERADMIN_PASSWORD;
  if ((email === undefined) !== (password === undefined || password === '')) {
    throw new ConfigError(email === undefined ? 'OPS_SUPERADMIN_EMAIL' : 'OPS_SUPERADMIN_PASSWORD', 'must be set together with its pair');
  }
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new ConfigError('OPS_SUPERADMIN_EMAIL', 'must be an e-mail address');
  if (password !== undefined && password !== '' && (password.length < 8 || password.length > 64)) {
    throw new ConfigError('OPS_SUPERADMIN_PASSWORD', 'must be 8 to 64 characters long');
  }
  return { opsSuperadminEmail: email, opsSuperadminPassword: password || undefined };
}

const HTTP = ['http:', 'https:'];

/** `OIDC_PROVIDERS`: a JSON array of `{name, issuer, clientId, clientSecret}`, at most two. */
function oidcProviders(env: Env): OidcProviderConfig[] {
  const raw = optional(env, 'OIDC_PROVIDERS');
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('OIDC_PROVIDERS', 'must be a JSON array of {name, issuer, clientId, clientSecret}');
  }
  const valid = (item: unknown): item is OidcProviderConfig => {
    const entry = item as Record<string, unknown>;
    return (
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.name === 'string' &&
      /^[a-z][a-z0-9-]{0,31}$/.test(entry.name) &&
      ['issuer', 'clientId', 'clientSecret'].every((field) => typeof entry[field] === 'string' && entry[field] !== '')
    );
  };
  if (!Array.isArray(parsed) || parsed.length > 2 || !parsed.every(valid)) {
    throw new ConfigError(
      'OIDC_PROVIDERS',
      'must be a JSON array of at most two {name, issuer, clientId, clientSecret} (name: a-z, 0-9, -)',
    );
  }
  return parsed;
}

const S3_VARIABLES = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** `S3_ENDPOINT` with its bucket and both keys, or none of them. */
function s3(env: Env): S3Config | undefined {
  const endpoint = url(env, 'S3_ENDPOINT', HTTP);
  if (endpoint === undefined) {
    const stray = S3_VARIABLES.find((name) => optional(env, name) !== undefined);
    if (stray) throw new ConfigError(stray, 'is set but S3_ENDPOINT is not');
    return undefined;
  }
  const [bucket, accessKeyId, secretAccessKey] = S3_VARIABLES.map((name) => {
    const value = optional(env, name);
    if (value === undefined) throw new ConfigError(name, 'is required when S3_ENDPOINT is set');
    return value;
  }) as [string, string, string];
  if (!BUCKET.test(bucket))
    throw new ConfigError('S3_BUCKET', `must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (got "${bucket}")`);
  return { endpoint, bucket, accessKeyId, secretAccessKey };
}

/** `tcp://host:port` of clamd. */
function clamdUrl(env: Env): string | undefined {
  const value = url(env, 'CLAMD_URL', ['tcp:']);
  if (value !== undefined && !new URL(value).hostname)
    throw new ConfigError('CLAMD_URL', `must name a host, as tcp://host:3310 (got "${value}")`);
  return value;
}

const ISSUER_FIELDS = new Set(['issuer', 'audience', 'jwksUri', 'tokenType']);

/** `WORKSPACE_ISSUERS`: a JSON array of `{issuer, audience?, jwksUri?, tokenType?}`. */
function workspaceIssuers(env: Env): WorkspaceIssuerConfig[] {
  const raw = optional(env, 'WORKSPACE_ISSUERS');
  if (raw === undefined) return [];
  const shape = 'must be a JSON array of {issuer, audience?, jwksUri?, tokenType?} with http(s) URLs';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('WORKSPACE_ISSUERS', shape);
  }
  const isUrl = (value: unknown) => typeof value === 'string' && HTTP.includes(URL.parse(value)?.protocol ?? '');
  const valid = (item: unknown): item is WorkspaceIssuerConfig => {
    if (typeof item !== 'object' || item === null) return false;
    const entry = item as Record<string, unknown>;
    return (
      Object.keys(entry).every((field) => ISSUER_FIELDS.has(field)) &&
      isUrl(entry.issuer) &&
      (entry.audience === undefined || (typeof entry.audience === 'string' && entry.audience !== '')) &&
      (entry.jwksUri === undefined || isUrl(entry.jwksUri)) &&
      (entry.tokenType === undefined || entry.tokenType === false || (typeof entry.tokenType === 'string' && entry.tokenType !== ''))
    );
  };
  if (!Array.isArray(parsed) || parsed.length > 10 || !parsed.every(valid)) throw new ConfigError('WORKSPACE_ISSUERS', shape);
  return parsed;
}

/**
 * `CONSOLE_ISSUER` and `CONSOLE_CLIENT_ID` together (and an optional `CONSOLE_SCOPE`), or
 * neither; the issuer must be one the workspace API trusts, or the console's tokens would be refused.
 */
function consoleSignIn(env: Env, trusted: readonly WorkspaceIssuerConfig[]): ConsoleSignIn | undefined {
  const issuer = url(env, 'CONSOLE_ISSUER', HTTP);
  const clientId = optional(env, 'CONSOLE_CLIENT_ID');
  if ((issuer === undefined) !== (clientId === undefined)) {
    throw new ConfigError(issuer === undefined ? 'CONSOLE_ISSUER' : 'CONSOLE_CLIENT_ID', 'must be set together with its pair');
  }
  if (issuer === undefined || clientId === undefined) {
    if (optional(env, 'CONSOLE_SCOPE') !== undefined) throw new ConfigError('CONSOLE_SCOPE', 'is set but CONSOLE_ISSUER is not');
    return undefined;
  }
  if (!trusted.some((entry) => entry.issuer.replace(/\/+$/, '') === issuer)) {
    throw new ConfigError('CONSOLE_ISSUER', `must be one of the issuers of WORKSPACE_ISSUERS (got "${issuer}")`);
  }
  const scope = optional(env, 'CONSOLE_SCOPE') ?? 'openid email profile';
  if (!scope.split(' ').includes('openid')) throw new ConfigError('CONSOLE_SCOPE', `must include openid (got "${scope}")`);
  return { issuer, clientId, scope };
}

/** `MCP_ALLOWED_ORIGINS`: comma-separated origins, `scheme://host[:port]` each. */
function origins(env: Env, name: string): string[] {
  const raw = optional(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(entry);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !HTTP.includes(parsed.protocol) || parsed.origin !== entry.replace(/\/+$/, '')) {
        throw new ConfigError(name, `must list origins as scheme://host[:port], comma-separated (got "${entry}")`);
      }
      return parsed.origin;
    });
}

/**
 * `CORS_ORIGINS`: comma-separated origins, `scheme://host[:port]` each, or `*` for any origin
 * (without credentials).
 */
function corsOrigins(env: Env): string[] {
  const raw = optional(env, 'CORS_ORIGINS');
  if (raw === undefined) return [];
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wildcard = entries.includes('*');
  const named = origins({ CORS_ORIGINS: entries.filter((entry) => entry !== '*').join(',') }, 'CORS_ORIGINS');
  return wildcard ? [...named, '*'] : named;
}

/** `QUEUE_CONSUMERS`: only `ROLE=all` may turn its consumers off; a worker exists to run them. */
function queueConsumers(env: Env, role: Role): boolean {
  const wanted = boolean(env, 'QUEUE_CONSUMERS', true);
  if (!wanted && role === 'worker') throw new ConfigError('QUEUE_CONSUMERS', 'cannot be false with ROLE=worker');
  return wanted && (role === 'all' || role === 'worker');
}

/** `WEB_CONCURRENCY`: HTTP workers of `ROLE=all`; the other roles scale by running more processes. */
function webConcurrency(env: Env, role: Role): number {
  const workers = integer(env, 'WEB_CONCURRENCY', role === 'all' ? Math.min(availableParallelism(), 64) : 1, 1, 64);
  if (workers > 1 && role !== 'all') throw new ConfigError('WEB_CONCURRENCY', `must be 1 with ROLE=${role}: run more processes instead`);
  return workers;
}

export function loadConfig(env: Env = process.env): Config {
  const role = oneOf(env, 'ROLE', ROLES, 'all');
  const subgraphUrls: Partial<Record<SubgraphName, string>> = {};
  for (const name of SUBGRAPH_NAMES) {
    const variable = `SUBGRAPH_${name.toUpperCase()}_URL`;
    const value = url(env, variable, HTTP);
    if (value) subgraphUrls[name] = value;
    else if (role === 'gateway') throw new ConfigError(variable, 'is required when ROLE=gateway');
  }
  const adminToken = secret(env, 'ADMIN_TOKEN');
  const stripeSecretKey = optional(env, 'STRIPE_SECRET_KEY');
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)');
  }
  const stripeWebhookSecret = optional(env, 'STRIPE_WEBHOOK_SECRET');
  if (stripeWebhookSecret !== undefined && !stripeWebhookSecret.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'must be a Stripe webhook signing secret (whsec_…)');
  }
  const llmBaseUrl = url(env, 'LLM_BASE_URL', HTTP);
  const issuers = workspaceIssuers(env);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  // Demo users share a published password: only a throw-away embedded database gets them unasked.
  const demoByDefault = databaseUrl === undefined;
  const demoResearch = boolean(env, 'DEMO_RESEARCH', demoByDefault);
  return {
    role,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: optional(env, 'HOST') ?? '0.0.0.0',
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', HTTP),
    siteBaseUrl: url(env, 'SITE_BASE_URL', HTTP),
    apiBaseUrl: url(env, 'API_BASE_URL', HTTP),
    mcpAllowedOrigins: origins(env, 'MCP_ALLOWED_ORIGINS'),
    corsOrigins: corsOrigins(env),
    databaseUrl,
    dataDir: optional(env, 'DATA_DIR') ?? '.data',
    adminToken,
    meiliHost: url(env, 'MEILI_HOST', HTTP),
    meiliApiKey: optional(env, 'MEILI_API_KEY'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    queueConsumers: queueConsumers(env, role),
    webConcurrency: webConcurrency(env, role),
    llmBaseUrl,
    llmApiKey: optional(env, 'LLM_API_KEY'),
    llmModel: optional(env, 'LLM_MODEL') ?? (llmBaseUrl ? 'gpt-4o-mini' : undefined),
    llmTimeoutMs: integer(env, 'LLM_TIMEOUT_MS', 30_000, 100, 600_000),
    stripeSecretKey,
    stripeWebhookSecret,
    stripeApiUrl: url(env, 'STRIPE_API_URL', HTTP),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    accessLogSample: fraction(env, 'ACCESS_LOG_SAMPLE', 1),
    graphqlDeduplicate: boolean(env, 'GRAPHQL_DEDUPLICATE', true),
    declaredErrorsLog: optional(env, 'QANTARA_CHECK_DECLARED_ERRORS'),
    subgraphUrls,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    demoLibrary: boolean(env, 'DEMO_LIBRARY', true),
    trustProxy: trustProxy(env),
    subgraphSecret: secret(env, 'SUBGRAPH_SECRET'),
    secretsKey: secretsKey(env),
    ...superAdmin(env),
    demoOperations: boolean(env, 'DEMO_OPERATIONS', demoByDefault),
    demoOperationsRecords: boolean(env, 'DEMO_OPERATIONS_RECORDS', demoByDefault),
    demoResearch,
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    outboxRetentionDays: integer(env, 'OUTBOX_RETENTION_DAYS', 7, 1, 3650),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'Qantara <no-reply@qantara.local>',
    challenge: challenge(env),
    challengeSecret: optional(env, 'CHALLENGE_SECRET'),
    challengeVerifyUrl: url(env, 'CHALLENGE_VERIFY_URL', HTTP) ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    oidcProviders: oidcProviders(env),
    s3: s3(env),
    clamdUrl: clamdUrl(env),
    workspaceOwnIssuer: boolean(env, 'WORKSPACE_OWN_ISSUER', true),
    workspaceIssuers: issuers,
    researchWelcomeCredits: integer(env, 'RESEARCH_WELCOME_CREDITS', demoResearch && !llmBaseUrl ? DEMO_WELCOME_CREDITS : 0, 0, 1_000_000),
    console: consoleSignIn(env, issuers),
  };
}
