import type { SubgraphContext } from '../../shared/context.js';
import { AccountsError } from './accounts.errors.js';
import { isStorableKeyId, unknownKeyIssue, validateAdminCommand, type AdminCommand, type AdminInput } from './admin-input.js';
import type { AdminTokenCheck } from './admin-token.js';
import { ApiKeyEntity, type ApiKey } from './api-key.entity.js';
import { issueKey } from './key-issuer.js';
import { keyView, type IssuedKey, type KeyView } from './key-views.js';
import { KEY_STATUSES, PLAN_NAMES } from './plans.js';
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
 * Admin operations on keys, behind `x-admin-token`. The token is checked before
 * anything else is looked at; input problems are reported in the seed's
 * Validation error form (`meta.validation`).
 */
export class AdminService {
  private readonly clock: Clock;

  constructor(
    private readonly token: AdminTokenCheck,
    private readonly usage: UsageRepository,
    options: { readonly clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  async createKey(ctx: SubgraphContext, input: { email: string; plan: string; org?: string | null }): Promise<IssuedKey> {
    this.authorize(ctx);
    const valid = this.validate('createKey', { body: { email: input.email, plan: input.plan, org: input.org ?? null } });
    return issueKey(ctx.em, { ...valid, source: 'admin' }, this.clock());
  }

  async setPlan(ctx: SubgraphContext, keyId: number, plan: string): Promise<KeyView> {
    this.authorize(ctx);
    const valid = this.validate('setPlan', { path: { key_id: keyId }, body: { plan } });
    return this.update(ctx, valid.keyId, (key) => {
      key.plan = valid.plan;
    });
  }

  async setRpd(ctx: SubgraphContext, keyId: number, rpd: number | null): Promise<KeyView> {
    this.authorize(ctx);
    const valid = this.validate('setRpd', { path: { key_id: keyId }, body: { rpd } });
    return this.update(ctx, valid.keyId, (key) => {
      key.rpdOverride = valid.rpd;
    });
  }

  async setStatus(ctx: SubgraphContext, keyId: number, status: string): Promise<KeyView> {
    this.authorize(ctx);
    const valid = this.validate('setStatus', { path: { key_id: keyId }, body: { status } });
    return this.update(ctx, valid.keyId, (key) => {
      key.status = valid.status;
    });
  }

  async stats(ctx: SubgraphContext): Promise<AdminStats> {
    this.authorize(ctx);
    const day = windowsAt(this.clock()).day;
    const groups = await ctx.em.execute<Array<{ plan: string; status: string; keys: number }>>(
      'select "plan", "status", count(*)::int as "keys" from "library"."api_key" group by "plan", "status"',
    );
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

  private authorize(ctx: SubgraphContext): void {
    if (!this.token.matches(ctx.headers['x-admin-token'])) throw AccountsError.adminUnauthorized();
  }

  private validate<C extends AdminCommand>(command: C, request: { path?: Record<string, unknown>; body: unknown }): AdminInput[C] {
    const result = validateAdminCommand(command, request);
    if (!result.ok) throw AccountsError.invalidAdminInput(result.issues);
    return result.value;
  }

  private async update(ctx: SubgraphContext, keyId: number, change: (key: ApiKey) => void): Promise<KeyView> {
    const key = isStorableKeyId(keyId) ? await ctx.em.findOne(ApiKeyEntity, { id: keyId }) : null;
    if (!key) throw AccountsError.invalidAdminInput([unknownKeyIssue(keyId)]);
    change(key);
    await ctx.em.flush();
    return keyView(key, await this.usage.lastUsedAt(ctx.em, key.id));
  }
}
