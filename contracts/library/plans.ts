/**
 * The library's plans: calls per minute (`rpm`), per UTC day (`rpd`) and the largest
 * retrieval `limit` a key may ask for. A key may carry its own daily quota (an admin
 * `rpd` override), which replaces its plan's `rpd`.
 */

export const PLAN_NAMES = ['free', 'pro', 'unlimited'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const KEY_STATUSES = ['active', 'suspended', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** The absolute bound of retrieval `limit` (seed: maximum 20); a plan may only lower it. */
export const RETRIEVE_LIMIT_MAX = 20;

/** Bounds of an admin `rpd` override. */
export const RPD_OVERRIDE_MIN = 1;
export const RPD_OVERRIDE_MAX = 100_000_000;

/**
 * The limits of the open routes (`/v1/register`, `/healthz`, `/plans`, `/`), which take no key:
 * counted per client address, in PostgreSQL like a key's windows, and reported in the same
 * `X-RateLimit-*` (minute) and `X-Quota-*` (UTC day) headers. Generous enough for a health
 * probe every few seconds from one address.
 */
export const OPEN_ROUTE_LIMITS = { rpm: 120, rpd: 30_000 } as const;

export interface Plan {
  readonly name: PlanName;
  readonly description: string;
  /** Calls per minute (the `X-RateLimit-*` window). */
  readonly rpm: number;
  /** Calls per UTC day (the `X-Quota-*` window), unless the key has its own. */
  readonly rpd: number;
  /** Largest retrieval `limit` this plan allows. */
  readonly maxLimit: number;
  /** Whether `POST /v1/register` issues keys on it; the others are assigned by an admin. */
  readonly selfService: boolean;
}

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: {
    name: 'free',
    description: 'Free key from POST /v1/register: 10 calls per minute, 300 per UTC day.',
    rpm: 10,
    rpd: 300,
    maxLimit: 20,
    selfService: true,
  },
  pro: {
    name: 'pro',
    description: 'For applications in production: 60 calls per minute, 10,000 per UTC day. Assigned by an admin.',
    rpm: 60,
    rpd: 10_000,
    maxLimit: 20,
    selfService: false,
  },
  unlimited: {
    // The ceilings are far above any real client; they keep the headers numeric and
    // still stop a runaway loop.
    name: 'unlimited',
    description: 'Internal and partner use, admin only: no practical limit (100,000 per minute, 100,000,000 per UTC day).',
    rpm: 100_000,
    rpd: 100_000_000,
    maxLimit: 20,
    selfService: false,
  },
};

/** The limits in force for one key: its plan's, with its own daily quota when set. */
export interface Limits {
  readonly rpm: number;
  readonly rpd: number;
  readonly maxLimit: number;
}

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

export function isKeyStatus(value: string): value is KeyStatus {
  return (KEY_STATUSES as readonly string[]).includes(value);
}

/** A plan by name; an unknown stored name (a plan since retired) falls back to `free`. */
export function planOf(name: string): Plan {
  return isPlanName(name) ? PLANS[name] : PLANS.free;
}

export function limitsOf(planName: string, rpdOverride: number | null): Limits {
  const plan = planOf(planName);
  return { rpm: plan.rpm, rpd: rpdOverride ?? plan.rpd, maxLimit: Math.min(plan.maxLimit, RETRIEVE_LIMIT_MAX) };
}
