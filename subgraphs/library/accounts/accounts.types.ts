import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { KeyOverview, UsageReport } from './account.service.js';
import type { AdminStats } from './admin.service.js';
import type { IssuedKey, KeyView } from './key-views.js';
import type { Limits, Plan } from './plans.js';
import type { RateWindowState } from './rate-limit-state.js';

@ObjectType('LibraryLimits', { description: 'Limits in force for a key.' })
export class LibraryLimits {
  @Field(() => Int, { description: 'Calls per minute.' })
  rpm!: number;

  @Field(() => Int, { description: 'Calls per UTC day (the key’s own quota when an admin set one).' })
  rpd!: number;

  @Field(() => Int, { description: 'Largest retrieval `limit` allowed.' })
  maxLimit!: number;
}

@ObjectType('LibraryPlan', { description: 'A plan of the library API.' })
export class LibraryPlan extends LibraryLimits {
  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean, { description: 'Whether self-service registration issues keys on this plan.' })
  selfService!: boolean;
}

@ObjectType('LibraryIssuedKey', { description: 'A key just issued. `key` is shown this once and can never be read again.' })
export class LibraryIssuedKey {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  key!: string;

  @Field(() => String)
  plan!: string;

  @Field(() => LibraryLimits)
  limits!: Limits;
}

@ObjectType('LibraryKey', { description: 'An API key as its owner and admins see it (never the key itself).' })
export class LibraryKey {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'First characters of the key, to tell keys apart.' })
  prefix!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String, { nullable: true })
  org!: string | null;

  @Field(() => String)
  plan!: string;

  @Field(() => String, { description: '`active`, `suspended` or `revoked`.' })
  status!: string;

  @Field(() => Int, { nullable: true, description: 'Daily quota set by an admin in place of the plan’s.' })
  rpdOverride!: number | null;

  @Field(() => LibraryLimits)
  limits!: Limits;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601 time of the last counted call.' })
  lastUsedAt!: string | null;
}

@ObjectType('LibraryRateWindow', { description: 'One counting window of a key.' })
export class LibraryRateWindow {
  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  remaining!: number;

  @Field(() => Float, { description: 'When the window resets, in epoch seconds.' })
  reset!: number;
}

@ObjectType('LibraryMe', { description: 'The calling key and its consumption (this call included).' })
export class LibraryMe {
  @Field(() => LibraryKey)
  key!: LibraryKey;

  @Field(() => Int)
  usedToday!: number;

  @Field(() => Int)
  usedThisMinute!: number;

  @Field(() => LibraryRateWindow)
  minute!: RateWindowState;

  @Field(() => LibraryRateWindow)
  day!: RateWindowState;
}

@ObjectType('LibraryOperationCalls')
export class LibraryOperationCalls {
  @Field(() => String)
  operation!: string;

  @Field(() => Int)
  calls!: number;
}

@ObjectType('LibraryUsageDay', { description: 'Calls of one UTC day.' })
export class LibraryUsageDay {
  @Field(() => String, { description: 'YYYY-MM-DD (UTC).' })
  date!: string;

  @Field(() => Int)
  calls!: number;

  @Field(() => [LibraryOperationCalls])
  byOperation!: LibraryOperationCalls[];
}

@ObjectType('LibraryUsage', { description: 'Consumption of the last `days` UTC days, newest first.' })
export class LibraryUsage {
  @Field(() => Int, { description: 'Days covered (at most 90).' })
  days!: number;

  @Field(() => String)
  from!: string;

  @Field(() => String)
  to!: string;

  @Field(() => Int)
  total!: number;

  @Field(() => [LibraryUsageDay])
  rows!: LibraryUsageDay[];
}

@ObjectType('LibraryNamedCount')
export class LibraryNamedCount {
  @Field(() => String)
  name!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType('LibraryTopKey')
export class LibraryTopKey {
  @Field(() => LibraryKey)
  key!: LibraryKey;

  @Field(() => Int)
  callsToday!: number;
}

@ObjectType('LibraryAdminStats', { description: 'Keys by plan and status, calls today and the busiest keys.' })
export class LibraryAdminStats {
  @Field(() => Int)
  keysTotal!: number;

  @Field(() => [LibraryNamedCount])
  keysByPlan!: LibraryNamedCount[];

  @Field(() => [LibraryNamedCount])
  keysByStatus!: LibraryNamedCount[];

  @Field(() => Int)
  callsToday!: number;

  @Field(() => [LibraryTopKey])
  topKeys!: LibraryTopKey[];
}

export function toLibraryPlan(plan: Plan): LibraryPlan {
  return Object.assign(new LibraryPlan(), plan);
}

export function toLibraryIssuedKey(issued: IssuedKey): LibraryIssuedKey {
  return Object.assign(new LibraryIssuedKey(), issued);
}

export function toLibraryKey(view: KeyView): LibraryKey {
  return Object.assign(new LibraryKey(), {
    ...view,
    createdAt: view.createdAt.toISOString(),
    lastUsedAt: view.lastUsedAt?.toISOString() ?? null,
  });
}

export function toLibraryMe(overview: KeyOverview): LibraryMe {
  return Object.assign(new LibraryMe(), {
    key: toLibraryKey(overview.key),
    usedToday: overview.usedToday,
    usedThisMinute: overview.usedThisMinute,
    minute: overview.rateLimit.minute,
    day: overview.rateLimit.day,
  });
}

export function toLibraryUsage(report: UsageReport): LibraryUsage {
  return Object.assign(new LibraryUsage(), report);
}

export function toLibraryAdminStats(stats: AdminStats): LibraryAdminStats {
  return Object.assign(new LibraryAdminStats(), {
    ...stats,
    topKeys: stats.topKeys.map((entry) => ({ key: toLibraryKey(entry.key), callsToday: entry.callsToday })),
  });
}
