import { z } from 'zod';
import type { LibraryAdminStats, LibraryIssuedKeyData, LibraryKeyData, LibraryMe, LibraryPlanData, LibraryUsage } from './account-types.js';

/** The snake_case bodies of the library's account and admin paths, and how the GraphQL data becomes them. */

const LimitsWire = z.object({ rpm: z.int(), rpd: z.int(), max_limit: z.int() }).meta({ id: 'Limits' });

export const IssuedKeyWire = z
  .object({ id: z.int(), key: z.string().describe('The key; shown this once.'), plan: z.string(), limits: LimitsWire })
  .meta({ id: 'IssuedKey' });

export const KeyWire = z
  .object({
    id: z.int(),
    prefix: z.string(),
    email: z.string(),
    org: z.string().nullable(),
    plan: z.string(),
    status: z.enum(['active', 'suspended', 'revoked']),
    rpd_override: z.int().nullable(),
    limits: LimitsWire,
    created: z.string().describe('ISO 8601.'),
    last_used: z.string().nullable(),
  })
  .meta({ id: 'Key' });

export const KeyListWire = z.object({ keys: z.array(KeyWire) }).meta({ id: 'KeyList' });

export const MeWire = KeyWire.extend({
  usage: z.object({
    today: z.int(),
    this_minute: z.int(),
    remaining_today: z.int(),
    remaining_this_minute: z.int(),
    day_reset: z.number().describe('Epoch seconds.'),
    minute_reset: z.number().describe('Epoch seconds.'),
  }),
}).meta({ id: 'Me' });

export const UsageWire = z
  .object({
    days: z.int(),
    from: z.string(),
    to: z.string(),
    total: z.int(),
    usage: z.array(z.object({ date: z.string(), calls: z.int(), by_operation: z.record(z.string(), z.int()) })),
  })
  .meta({ id: 'Usage' });

const PlanWire = z
  .object({ name: z.string(), description: z.string(), rpm: z.int(), rpd: z.int(), max_limit: z.int(), self_service: z.boolean() })
  .meta({ id: 'Plan' });

export const PlansWire = z.object({ plans: z.array(PlanWire) }).meta({ id: 'Plans' });

export const AdminStatsWire = z
  .object({
    keys: z.object({ total: z.int(), by_plan: z.record(z.string(), z.int()), by_status: z.record(z.string(), z.int()) }),
    calls_today: z.int(),
    top_keys: z.array(
      z.object({ id: z.int(), prefix: z.string(), email: z.string(), plan: z.string(), status: z.string(), calls_today: z.int() }),
    ),
  })
  .meta({ id: 'AdminStats' });

type Wire<T extends z.ZodType> = z.input<T>;

const limitsBody = (limits: LibraryKeyData['limits']): Wire<typeof LimitsWire> => ({
  rpm: limits.rpm,
  rpd: limits.rpd,
  max_limit: limits.maxLimit,
});

export const issuedKeyBody = (issued: LibraryIssuedKeyData): Wire<typeof IssuedKeyWire> => ({
  id: issued.id,
  key: issued.key,
  plan: issued.plan,
  limits: limitsBody(issued.limits),
});

export const keyBody = (key: LibraryKeyData): Wire<typeof KeyWire> => ({
  id: key.id,
  prefix: key.prefix,
  email: key.email,
  org: key.org,
  plan: key.plan,
  status: key.status as Wire<typeof KeyWire>['status'],
  rpd_override: key.rpdOverride,
  limits: limitsBody(key.limits),
  created: key.createdAt,
  last_used: key.lastUsedAt,
});

export const meBody = (me: z.output<typeof LibraryMe>): Wire<typeof MeWire> => ({
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

export const usageBody = (usage: z.output<typeof LibraryUsage>): Wire<typeof UsageWire> => ({
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

export const planBody = (plan: LibraryPlanData): Wire<typeof PlanWire> => ({
  name: plan.name,
  description: plan.description,
  rpm: plan.rpm,
  rpd: plan.rpd,
  max_limit: plan.maxLimit,
  self_service: plan.selfService,
});

const countsByName = (counts: ReadonlyArray<{ name: string; count: number }>) =>
  Object.fromEntries(counts.map((entry) => [entry.name, entry.count]));

export const adminStatsBody = (stats: z.output<typeof LibraryAdminStats>): Wire<typeof AdminStatsWire> => ({
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

/** A body with a key in it must never be stored by a cache on the way. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;
