import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContract, Throttle } from '../../../contracts/operation.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Throttler } from '../../shared/contracts/implementation.js';
import { OperationsError } from '../operations.errors.js';

/**
 * Attempt limits of the sign-in operations (register, login, second factor, resends,
 * forgot password, IP approval): a fixed-window counter per operation and subject (the
 * client address, or an input such as the e-mail address) in PostgreSQL, so every
 * instance shares it. Attempts are counted whatever their outcome and committed on their
 * own — a refused or failed call still counts — and a call over a limit is refused with
 * 429 and `Retry-After` before anything else runs.
 */
export class AttemptCounter {
  private calls = 0;

  constructor(private readonly root: EntityManager) {}

  /** Counts one attempt of `scope` by `subject`; over `limit` in the window → `ATTEMPTS_LIMITED`. */
  async hit(scope: string, subject: string, limit: number, windowSeconds: number): Promise<void> {
    // raw SQL: atomic upsert-increment in a fixed window computed by the database clock
    const [row] = await this.root.fork().execute<Array<{ count: number; retry_after: number }>>(
      `with "window" as (select to_timestamp(floor(extract(epoch from now()) / ?) * ?) as "start")
       insert into "operations"."attempt_counter" as c ("scope", "subject", "window_start", "count")
       select ?, ?, "start", 1 from "window"
       on conflict ("scope", "subject", "window_start") do update set "count" = c."count" + 1
       returning "count", ceil(extract(epoch from c."window_start" + make_interval(secs => ?) - now()))::int as "retry_after"`,
      [windowSeconds, windowSeconds, scope, subject, windowSeconds],
    );
    if ((this.calls = (this.calls + 1) % 500) === 0) await this.purge();
    if (row && row.count > limit) throw OperationsError.attemptsLimited(Math.max(1, row.retry_after));
  }

  /** Windows that ended a day ago are of no use. */
  private async purge(): Promise<void> {
    // raw SQL: bulk delete of old windows
    await this.root.fork().execute(`delete from "operations"."attempt_counter" where "window_start" < now() - interval '1 day'`);
  }

  /** The subject of a throttle for this call: the client address, or the named input lower-cased. */
  static subject(throttle: Throttle, ctx: SubgraphContext, input: Record<string, unknown>): string {
    if (throttle.by === 'ip') return ctx.clientIp ?? 'unknown';
    return String(input[throttle.by.field] ?? '')
      .trim()
      .toLowerCase();
  }

  /** The pipeline's throttler: every throttle a contract declares, in order. */
  readonly throttle: Throttler = async (contract: OperationContract, ctx: SubgraphContext, input: Record<string, unknown>) => {
    for (const throttle of contract.throttle) {
      const by = throttle.by === 'ip' ? 'ip' : throttle.by.field;
      await this.hit(`${contract.name}:${by}`, AttemptCounter.subject(throttle, ctx, input), throttle.limit, throttle.windowSeconds);
    }
  };
}
