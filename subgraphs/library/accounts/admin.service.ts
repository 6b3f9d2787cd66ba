import { raw } from '@mikro-orm/postgresql';
import type { libraryAdminCreateKey } from '../../../contracts/library/admin.contract.js';
import { unknownKey } from '../../../contracts/library/refusals.js';
import type { ContractInput } from '../../../contracts/operation.js';
import type { SubgraphContext } from '../../shared/context.js';
import { ApiKeyEntity, type ApiKey } from './api-key.entity.js';
import { issueKey } from './key-issuer.js';
import { keyView, type IssuedKey, type KeyView } from './key-views.js';
import { KEY_STATUSES, PLAN_NAMES, type KeyStatus, type PlanName } from '../../../contracts/library/plans.js';
import type { UsageRepository } from './usage.repository.js';
import { systemClock, windowsAt, type Clock } from './windows.js';

export interface NamedCount {
  readonly name: string;
  readonly count: number;
}

export interface AdminStats {
  readonly keysTotal: number;
  readonly keysByPlan: readonly NamedCount[];
  readonly keysByStatus: readonly NamedCount[];
  readonly callsToday: number;
  /** The keys with the most calls today, most first. */
  readonly topKeys: ReadonlyArray<{ readonly key: KeyView; readonly callsToday: number }>;
}

const TOP_KEYS = 10;

/**
 * Admin operations on keys. The admin token and the input are checked by the
 * operations' contracts before a method runs; a key id no key has is reported as the
 * seed's Validation error of the path parameter.
 */
export class AdminService {
  private readonly clock: Clock;

  constructor(
    private readonly usage: UsageRepository,
    options: { readonly clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  createKey(ctx: SubgraphContext, input: ContractInput<typeof libraryAdminCreateKey>): Promise<IssuedKey> {
    return issueKey(ctx.em, { ...input, source: 'admin' }, this.clock());
  }

  setPlan(ctx: SubgraphContext, keyId: number, plan: PlanName): Promise<KeyView> {
    return this.update(ctx, keyId, (key) => {
      key.plan = plan;
    });
  }

  setRpd(ctx: SubgraphContext, keyId: number, rpd: number | null): Promise<KeyView> {
    return this.update(ctx, keyId, (key) => {
      key.rpdOverride = rpd;
    });
  }

  setStatus(ctx: SubgraphContext, keyId: number, status: KeyStatus): Promise<KeyView> {
    return this.update(ctx, keyId, (key) => {
      key.status = status;
    });
  }

  async stats(ctx: SubgraphContext): Promise<AdminStats> {
    const day = windowsAt(this.clock()).day;
    const groups = await ctx.em
      .createQueryBuilder(ApiKeyEntity)
      .select(['plan', 'status', raw('count(*)::int as "keys"')])
      .groupBy(['plan', 'status'])
      .execute<Array<{ plan: string; status: string; keys: number }>>('all', false);
    const tally = (names: readonly string[], pick: (row: (typeof groups)[number]) => string): NamedCount[] => {
      const found = new Set(groups.map(pick));
      return [...names, ...[...found].filter((name) => !names.includes(name)).sort()].map((name) => ({
        name,
        count: groups.filter((row) => pick(row) === name).reduce((sum, row) => sum + row.keys, 0),
      }));
    };
    const top = await this.usage.topKeysOnDay(ctx.em, day, TOP_KEYS);
    const keys = top.length ? await ctx.em.find(ApiKeyEntity, { id: { $in: top.map((entry) => entry.keyId) } }) : [];
    const byId = new Map(keys.map((key) => [key.id, key]));
    const topKeys = [];
    for (const entry of top) {
      const key = byId.get(entry.keyId);
      if (key) topKeys.push({ key: keyView(key, await this.usage.lastUsedAt(ctx.em, key.id)), callsToday: entry.calls });
    }
    return {
      keysTotal: groups.reduce((sum, row) => sum + row.keys, 0),
      keysByPlan: tally(PLAN_NAMES, (row) => row.plan),
      keysByStatus: tally(KEY_STATUSES, (row) => row.status),
      callsToday: await this.usage.callsOnDay(ctx.em, day),
      topKeys,
    };
  }

  private async update(ctx: SubgraphContext, keyId: number, change: (key: ApiKey) => void): Promise<KeyView> {
    const key = await ctx.em.findOne(ApiKeyEntity, { id: keyId });
    if (!key) throw unknownKey(keyId);
    change(key);
    await ctx.em.flush();
    return keyView(key, await this.usage.lastUsedAt(ctx.em, key.id));
  }
}
