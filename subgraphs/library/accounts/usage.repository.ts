import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { PLAN_NAMES, PLANS } from '../../../contracts/library/plans.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyUsageEntity, ApiKeyWindowEntity } from './counters.entity.js';
import type { WindowCounts } from './rate-limit-state.js';
import type { Windows } from './windows.js';

/** Plan limits as the array arguments of `library.admit_call` (defined in the accounts migration). */
const PLAN_ARRAYS = [
  `{${PLAN_NAMES.join(',')}}`,
  `{${PLAN_NAMES.map((name) => PLANS[name].rpm).join(',')}}`,
  `{${PLAN_NAMES.map((name) => PLANS[name].rpd).join(',')}}`,
];

/**
 * One round trip per metered call: key lookup, limits, atomic count of both windows
 * and the usage log, in a PL/pgSQL function whose plan PostgreSQL keeps per session
 * (see Migration20261122010000_accounts for the statement and why it is exact).
 * Outside a transaction it commits asynchronously (docs/adr/0002).
 */
const ADMIT_CALL = `select * from "library"."admit_call"(?, ?::date, ?, ?::timestamptz, ?, ?::varchar[], ?::integer[], ?::integer[], ?, ?, ?)`;

/** Both registration counters in one statement; a refused one returns no row (the caller rolls back). */
const CLAIM_REGISTRATION = `
insert into "library"."registration_count" as r ("scope", "subject", "day", "count")
values ('email', ?, ?::date, 1), ('ip', ?, ?::date, 1)
on conflict ("scope", "subject", "day") do update set "count" = r."count" + 1
where r."count" < case when r."scope" = 'email' then ? else ? end
returning "scope"`;

/** The inverse of one counted call: both windows and the usage log, one statement. */
const REFUND_CALL = `
with window_row as (
  update "library"."api_key_window"
  set "day_count" = "day_count" - 1,
      "minute_count" = case when "minute" = ? then greatest("minute_count" - 1, 0) else "minute_count" end
  where "key_id" = ? and "day" = ?::date and "day_count" > 0
  returning "key_id"
)
update "library"."api_key_usage" set "calls" = "calls" - 1
where "key_id" = ? and "day" = ?::date and "operation" = ? and "calls" > 0 and exists (select 1 from window_row)`;

/** The key row as authentication needs it. */
export interface KeyRecord {
  readonly id: number;
  readonly keyHash: string;
  readonly plan: string;
  readonly status: string;
  readonly rpdOverride: number | null;
}

export interface AdmitOutcome {
  readonly key: KeyRecord;
  /** The windows after counting this call, or `null` when it was not counted. */
  readonly counts: WindowCounts | null;
}

interface AdmitRow {
  id: number;
  key_hash: string;
  plan: string;
  status: string;
  rpd_override: number | null;
  day_count: number | null;
  minute_count: number | null;
}

export interface DailyOperationCount {
  readonly day: string;
  readonly operation: string;
  readonly calls: number;
}

export interface KeyCallCount {
  readonly keyId: number;
  readonly calls: number;
}

/** The counters behind limits and usage, in plain SQL where atomicity needs it. */
export class UsageRepository {
  /**
   * Finds a key by the SHA-256 of what was presented and, when it is active and
   * both windows allow, counts the call. `null`: no such key. `counts: null`: the
   * call was not counted (key not active, or a limit reached).
   */
  async admitCall(em: EntityManager, keyHash: string, operation: string, windows: Windows, now: Date): Promise<AdmitOutcome | null> {
    // raw SQL: lookup, limits and both windows counted atomically in one call of `library.admit_call`.
    const rows = await em.execute<AdmitRow[]>(ADMIT_CALL, [
      keyHash,
      windows.day,
      windows.minute,
      now.toISOString(),
      operation,
      ...PLAN_ARRAYS,
      PLANS.free.rpm,
      PLANS.free.rpd,
      // Counts may commit without waiting for the WAL flush, but never a caller's own transaction.
      !em.isInTransaction(),
    ]);
    const row = rows[0];
    if (!row) return null;
    return {
      key: { id: row.id, keyHash: row.key_hash, plan: row.plan, status: row.status, rpdOverride: row.rpd_override },
      counts: row.day_count === null ? null : { day: row.day_count, minute: row.minute_count! },
    };
  }

  /** What a key has used in the current windows, counting nothing. */
  /** Takes one counted call of `operation` back out of the key's windows and usage log. */
  async refundCall(em: EntityManager, keyId: number, operation: string, windows: Windows): Promise<void> {
    // raw SQL: both windows and the usage log decremented atomically, never below zero.
    await em.execute(REFUND_CALL, [windows.minute, keyId, windows.day, keyId, windows.day, operation]);
  }

  /** The key with this SHA-256, counting nothing. */
  async findKey(em: EntityManager, keyHash: string): Promise<KeyRecord | null> {
    const key = await em.findOne(ApiKeyEntity, { keyHash }, { disableIdentityMap: true });
    return key ? { id: key.id, keyHash: key.keyHash, plan: key.plan, status: key.status, rpdOverride: key.rpdOverride ?? null } : null;
  }

  async peek(em: EntityManager, keyId: number, windows: Windows): Promise<WindowCounts> {
    // Counters change under raw SQL: read as stored, apart from the request's identity map.
    const window = await em.findOne(ApiKeyWindowEntity, { keyId, day: windows.day }, { disableIdentityMap: true });
    if (!window) return { day: 0, minute: 0 };
    return { day: window.dayCount, minute: window.minute >= windows.minute ? window.minuteCount : 0 };
  }

  /** `lastUsedAt` of several keys in one statement. */
  async lastUsedAtOf(em: EntityManager, keyIds: readonly number[]): Promise<Map<number, Date>> {
    if (keyIds.length === 0) return new Map();
    const rows = await em
      .createQueryBuilder(ApiKeyWindowEntity)
      .select(['keyId', raw('max("last_used_at") as "last_used_at"')])
      .where({ keyId: { $in: [...keyIds] } })
      .groupBy('keyId')
      .execute<Array<{ key_id: number; last_used_at: Date | string }>>('all', false);
    return new Map(rows.filter((row) => row.last_used_at).map((row) => [Number(row.key_id), new Date(row.last_used_at)]));
  }

  async lastUsedAt(em: EntityManager, keyId: number): Promise<Date | null> {
    const latest = await em.findOne(
      ApiKeyWindowEntity,
      { keyId },
      { orderBy: { lastUsedAt: 'desc' }, fields: ['lastUsedAt'], disableIdentityMap: true },
    );
    return latest ? new Date(latest.lastUsedAt) : null;
  }

  /** Calls per day and operation from `from` to `to` (inclusive, `YYYY-MM-DD`). */
  async dailyByOperation(em: EntityManager, keyId: number, from: string, to: string): Promise<DailyOperationCount[]> {
    const usage = await em.find(
      ApiKeyUsageEntity,
      { keyId, day: { $gte: from, $lte: to } },
      { orderBy: { day: 'desc', operation: 'asc' }, disableIdentityMap: true },
    );
    return usage.map((entry) => ({ day: entry.day, operation: entry.operation, calls: entry.calls }));
  }

  /**
   * Claims one registration for an e-mail and a client address on a UTC day. Must run
   * inside a transaction: when one of the two is refused the caller throws, and the
   * rollback returns the other's count.
   */
  async claimRegistration(
    em: EntityManager,
    email: string,
    ip: string,
    day: string,
    limits: { perEmail: number; perIp: number },
  ): Promise<{ email: boolean; ip: boolean }> {
    // raw SQL: `on conflict … do update … where` counts both, or refuses one, atomically.
    const rows = await em.execute<Array<{ scope: 'email' | 'ip' }>>(CLAIM_REGISTRATION, [
      email,
      day,
      ip,
      day,
      limits.perEmail,
      limits.perIp,
    ]);
    const scopes = new Set(rows.map((row) => row.scope));
    return { email: scopes.has('email'), ip: scopes.has('ip') };
  }

  async callsOnDay(em: EntityManager, day: string): Promise<number> {
    const [row] = await em
      .createQueryBuilder(ApiKeyWindowEntity)
      .select(raw('coalesce(sum("day_count"), 0)::bigint::text as "calls"'))
      .where({ day })
      .execute<Array<{ calls: string }>>('all', false);
    return Number(row?.calls ?? 0);
  }

  async topKeysOnDay(em: EntityManager, day: string, limit: number): Promise<KeyCallCount[]> {
    const windows = await em.find(
      ApiKeyWindowEntity,
      { day },
      { orderBy: { dayCount: 'desc', keyId: 'asc' }, limit, fields: ['keyId', 'day', 'dayCount'], disableIdentityMap: true },
    );
    return windows.map((window) => ({ keyId: window.keyId, calls: window.dayCount }));
  }
}
