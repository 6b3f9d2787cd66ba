/**
 * Library account data as the named operations select it (camelCase), and the
 * snake_case bodies the REST paths answer with, matching the seed's field style.
 */

export interface LimitsData {
  readonly rpm: number;
  readonly rpd: number;
  readonly maxLimit: number;
}

export interface IssuedKeyData {
  readonly id: number;
  readonly key: string;
  readonly plan: string;
  readonly limits: LimitsData;
}

export interface KeyData {
  readonly id: number;
  readonly prefix: string;
  readonly email: string;
  readonly org: string | null;
  readonly plan: string;
  readonly status: string;
  readonly rpdOverride: number | null;
  readonly limits: LimitsData;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

interface WindowData {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

export interface MeData {
  readonly key: KeyData;
  readonly usedToday: number;
  readonly usedThisMinute: number;
  readonly minute: WindowData;
  readonly day: WindowData;
}

export interface UsageData {
  readonly days: number;
  readonly from: string;
  readonly to: string;
  readonly total: number;
  readonly rows: ReadonlyArray<{ date: string; calls: number; byOperation: ReadonlyArray<{ operation: string; calls: number }> }>;
}

export interface PlanData extends LimitsData {
  readonly name: string;
  readonly description: string;
  readonly selfService: boolean;
}

export interface AdminStatsData {
  readonly keysTotal: number;
  readonly keysByPlan: ReadonlyArray<{ name: string; count: number }>;
  readonly keysByStatus: ReadonlyArray<{ name: string; count: number }>;
  readonly callsToday: number;
  readonly topKeys: ReadonlyArray<{ key: KeyData; callsToday: number }>;
}

export const limitsBody = (limits: LimitsData) => ({ rpm: limits.rpm, rpd: limits.rpd, max_limit: limits.maxLimit });

export const issuedKeyBody = (issued: IssuedKeyData) => ({
  id: issued.id,
  key: issued.key,
  plan: issued.plan,
  limits: limitsBody(issued.limits),
});

export const keyBody = (key: KeyData) => ({
  id: key.id,
  prefix: key.prefix,
  email: key.email,
  org: key.org,
  plan: key.plan,
  status: key.status,
  rpd_override: key.rpdOverride,
  limits: limitsBody(key.limits),
  created: key.createdAt,
  last_used: key.lastUsedAt,
});

export const meBody = (me: MeData) => ({
  ...keyBody(me.key),
  usage: {
    today: me.usedToday,
    this_minute: me.usedThisMinute,
    remaining_today: me.day.remaining,
    remaining_this_minute: me.minute.remaining,
    day_reset: me.day.reset,
    minute_reset: me.minute.reset,
  },
});

export const usageBody = (usage: UsageData) => ({
  days: usage.days,
  from: usage.from,
  to: usage.to,
  total: usage.total,
  usage: usage.rows.map((row) => ({
    date: row.date,
    calls: row.calls,
    by_operation: Object.fromEntries(row.byOperation.map((entry) => [entry.operation, entry.calls])),
  })),
});

export const planBody = (plan: PlanData) => ({
  name: plan.name,
  description: plan.description,
  rpm: plan.rpm,
  rpd: plan.rpd,
  max_limit: plan.maxLimit,
  self_service: plan.selfService,
});

const countsByName = (counts: ReadonlyArray<{ name: string; count: number }>) =>
  Object.fromEntries(counts.map((entry) => [entry.name, entry.count]));

export const adminStatsBody = (stats: AdminStatsData) => ({
  keys: { total: stats.keysTotal, by_plan: countsByName(stats.keysByPlan), by_status: countsByName(stats.keysByStatus) },
  calls_today: stats.callsToday,
  top_keys: stats.topKeys.map((entry) => ({
    id: entry.key.id,
    prefix: entry.key.prefix,
    email: entry.key.email,
    plan: entry.key.plan,
    status: entry.key.status,
    calls_today: entry.callsToday,
  })),
});
