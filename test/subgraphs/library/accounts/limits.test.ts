import { libraryKey } from '../../../../contracts/access.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../runtime/logger.js';
import { LibraryAccess } from '../../../../subgraphs/library/accounts/access.service.js';
import { AccountsError } from '../../../../subgraphs/library/accounts/accounts.errors.js';
import { AccountService } from '../../../../subgraphs/library/accounts/account.service.js';
import { issueKey } from '../../../../subgraphs/library/accounts/key-issuer.js';
import { RegistrationService } from '../../../../subgraphs/library/accounts/registration.service.js';
import { UsageRepository } from '../../../../subgraphs/library/accounts/usage.repository.js';
import { libraryModule } from '../../../../subgraphs/library/library.module.js';
import type { SubgraphContext } from '../../../../subgraphs/shared/context.js';
import { migrate, openOrm, type SubgraphOrm } from '../../../../subgraphs/shared/orm.js';
import { createTestDatabase } from '../../../support/database.js';

const logger = createLogger('silent');
let orm: SubgraphOrm;
let drop: () => Promise<void>;
let now = new Date('2026-03-10T09:15:05Z');
const clock = () => now;
const usage = new UsageRepository();
const access = new LibraryAccess(usage, { clock });

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  orm = await openOrm(libraryModule.database, { databaseUrl: database.url, logger });
  await migrate(orm, libraryModule.database, database.url, logger);
});
afterAll(async () => {
  await orm?.close(true);
  await drop?.();
});

function context(headers: Record<string, string> = {}, clientIp = '203.0.113.7'): SubgraphContext {
  return { em: orm.em.fork(), headers, requestId: 'test', clientIp, logger, extensions: {} };
}

async function newKey(plan: 'free' | 'pro' = 'free'): Promise<string> {
  const em = orm.em.fork();
  return (await issueKey(em, { email: 'k@example.org', org: null, plan, source: 'admin' }, now)).key;
}

async function attempt(key: string): Promise<{ status: number; code?: string; retryAfter?: unknown; ctx: SubgraphContext }> {
  const ctx = context({ authorization: `Bearer ${key}` });
  try {
    await access.admit(ctx, libraryKey('me'));
    return { status: 200, ctx };
  } catch (error) {
    if (!(error instanceof AccountsError)) throw error;
    return { status: error.status, code: error.code, retryAfter: error.meta.retryAfter, ctx };
  }
}

describe('counting windows with an injected clock', () => {
  it('opens a new minute window at the minute boundary, the day count going on', async () => {
    now = new Date('2026-03-10T09:15:05Z');
    const key = await newKey();
    for (let call = 0; call < 10; call += 1) expect((await attempt(key)).status).toBe(200);
    const refused = await attempt(key);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 55 });
    now = new Date('2026-03-10T09:16:00Z');
    const next = await attempt(key);
    expect(next.status).toBe(200);
    expect(next.ctx.extensions.rateLimit).toEqual({
      minute: { limit: 10, remaining: 9, reset: Date.parse('2026-03-10T09:17:00Z') / 1000 },
      day: { limit: 300, remaining: 289, reset: Date.parse('2026-03-11T00:00:00Z') / 1000 },
    });
  });

  it('refuses once the UTC day’s quota is used and admits again after midnight', async () => {
    now = new Date('2026-03-10T23:50:00Z');
    const key = await newKey();
    for (let minute = 0; minute < 30; minute += 1) {
      now = new Date(Date.parse('2026-03-10T23:00:00Z') + minute * 60_000);
      for (let call = 0; call < 10; call += 1) expect((await attempt(key)).status).toBe(200);
    }
    now = new Date('2026-03-10T23:59:30Z');
    expect(await attempt(key)).toMatchObject({ status: 429, code: 'quota_exceeded', retryAfter: 30 });
    now = new Date('2026-03-11T00:00:01Z');
    expect((await attempt(key)).status).toBe(200);
  });

  it('counts a call from an instance whose clock lags into the stored minute instead of resetting it', async () => {
    now = new Date('2026-03-12T10:00:30Z');
    const key = await newKey();
    for (let call = 0; call < 9; call += 1) await attempt(key);
    now = new Date('2026-03-12T09:59:59Z');
    expect((await attempt(key)).status).toBe(200);
    now = new Date('2026-03-12T10:00:31Z');
    expect((await attempt(key)).code).toBe('rate_limit_exceeded');
  });

  it('admits exactly the remaining allowance to concurrent calls, each on its own connection', async () => {
    now = new Date('2026-03-13T08:00:00Z');
    const key = await newKey();
    const results = await Promise.all(Array.from({ length: 30 }, () => attempt(key)));
    expect(results.filter((result) => result.status === 200)).toHaveLength(10);
    const ctx = context({ authorization: `Bearer ${key}` });
    now = new Date('2026-03-13T08:01:00Z');
    const caller = await access.admit(ctx, libraryKey('me'));
    expect(caller.counts).toEqual({ minute: 1, day: 11 });
  });

  it('never relaxes the durability of a caller’s own transaction', async () => {
    now = new Date('2026-03-14T08:00:00Z');
    const key = await newKey();
    const setting = await orm.em.fork().transactional(async (em) => {
      await access.admit({ ...context({ authorization: `Bearer ${key}` }), em }, libraryKey('me'));
      return em.execute<Array<{ synchronous_commit: string }>>('show synchronous_commit');
    });
    expect(setting[0]?.synchronous_commit).toBe('on');
  });

  it('reports usage per day and operation, capped at 90 days', async () => {
    now = new Date('2026-04-01T12:00:00Z');
    const key = await newKey('pro');
    await access.admit(context({ authorization: `Bearer ${key}` }), libraryKey('retrieve'));
    now = new Date('2026-04-03T12:00:00Z');
    const caller = await access.admit(context({ authorization: `Bearer ${key}` }), libraryKey('usage'));
    const report = await new AccountService(usage, { clock }).report(context(), caller, 500);
    expect(report.days).toBe(90);
    expect(report.rows).toHaveLength(90);
    expect(report.rows.slice(0, 3)).toEqual([
      { date: '2026-04-03', calls: 1, byOperation: [{ operation: 'usage', calls: 1 }] },
      { date: '2026-04-02', calls: 0, byOperation: [] },
      { date: '2026-04-01', calls: 1, byOperation: [{ operation: 'retrieve', calls: 1 }] },
    ]);
    expect(report.rows.at(-1)?.date).toBe('2026-01-04');
  });
});

describe('registration limits', () => {
  const registration = new RegistrationService(usage, { clock });
  const register = async (email: string, ip: string) => {
    try {
      await registration.register(context({}, ip), { email });
      return 201;
    } catch (error) {
      if (error instanceof AccountsError) return `${error.status} ${error.param ?? 'ip'}`;
      throw error;
    }
  };

  it('allows 3 keys per e-mail address and 5 per client address per UTC day; a refusal counts against neither', async () => {
    now = new Date('2026-05-01T10:00:00Z');
    expect([
      await register('a@example.org', '198.51.100.1'),
      await register('A@example.org', '198.51.100.2'),
      await register('a@example.org', '198.51.100.3'),
    ]).toEqual([201, 201, 201]);
    expect(await register('a@example.org', '198.51.100.4')).toBe('429 email');
    for (const email of ['b@example.org', 'c@example.org', 'd@example.org', 'e@example.org'])
      expect(await register(email, '198.51.100.4')).toBe(201);
    // 198.51.100.4 has 4 keys: the refused registration above counted nothing there.
    expect(await register('f@example.org', '198.51.100.4')).toBe(201);
    expect(await register('g@example.org', '198.51.100.4')).toBe('429 ip');
    now = new Date('2026-05-02T00:00:00Z');
    expect(await register('a@example.org', '198.51.100.4')).toBe(201);
  });
});
