/**
 * The process configuration, read once from the environment and validated before
 * anything starts. A bad value stops the process with one line naming the variable.
 */

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
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly adminToken: string | undefined;
  readonly meiliHost: string | undefined;
  readonly meiliApiKey: string | undefined;
  readonly redisUrl: string | undefined;
  readonly llmBaseUrl: string | undefined;
  readonly llmApiKey: string | undefined;
  readonly llmModel: string | undefined;
  /** How long the LLM upstream may stay silent (before its first byte, and between chunks). */
  readonly llmTimeoutMs: number;
  readonly stripeSecretKey: string | undefined;
  readonly stripeWebhookSecret: string | undefined;
  readonly logLevel: LogLevel;
  readonly subgraphUrls: Readonly<Partial<Record<SubgraphName, string>>>;
  /** How long SIGTERM waits for in-flight requests before closing connections. */
  readonly shutdownTimeoutMs: number;
  /** Load the demo library on first start with an empty library. */
  readonly demoLibrary: boolean;
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

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
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

const HTTP = ['http:', 'https:'];

export function loadConfig(env: Env = process.env): Config {
  const role = oneOf(env, 'ROLE', ROLES, 'all');
  const subgraphUrls: Partial<Record<SubgraphName, string>> = {};
  for (const name of SUBGRAPH_NAMES) {
    const variable = `SUBGRAPH_${name.toUpperCase()}_URL`;
    const value = url(env, variable, HTTP);
    if (value) subgraphUrls[name] = value;
    else if (role === 'gateway') throw new ConfigError(variable, 'is required when ROLE=gateway');
  }
  const adminToken = optional(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters long');
  }
  const stripeSecretKey = optional(env, 'STRIPE_SECRET_KEY');
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)');
  }
  const stripeWebhookSecret = optional(env, 'STRIPE_WEBHOOK_SECRET');
  if (stripeWebhookSecret !== undefined && !stripeWebhookSecret.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'must be a Stripe webhook signing secret (whsec_…)');
  }
  const llmBaseUrl = url(env, 'LLM_BASE_URL', HTTP);
  return {
    role,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: optional(env, 'HOST') ?? '0.0.0.0',
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', HTTP),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: optional(env, 'DATA_DIR') ?? '.data',
    adminToken,
    meiliHost: url(env, 'MEILI_HOST', HTTP),
    meiliApiKey: optional(env, 'MEILI_API_KEY'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    llmBaseUrl,
    llmApiKey: optional(env, 'LLM_API_KEY'),
    llmModel: optional(env, 'LLM_MODEL') ?? (llmBaseUrl ? 'gpt-4o-mini' : undefined),
    llmTimeoutMs: integer(env, 'LLM_TIMEOUT_MS', 30_000, 100, 600_000),
    stripeSecretKey,
    stripeWebhookSecret,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    subgraphUrls,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    demoLibrary: boolean(env, 'DEMO_LIBRARY', true),
  };
}
