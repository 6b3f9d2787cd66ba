import { WEBHOOK_PING_EVENT } from '../../../contracts/operations/webhooks-types.js';
import { DELIVERY_TABLE } from './webhook-deliveries.service.js';
import type { DispatchDatabase, Sql } from './webhook-dispatch-database.js';

const OUTBOX = `"operations"."outbox_event"`;
const CURSOR = `"operations"."webhook_dispatch_cursor"`;
/** Events read per pass. */
const BATCH = 500;
/** A gap in the sequence is never skipped sooner than this after it was first seen. */
const GAP_GRACE_MS = 1000;

/**
 * What a pass did: `more` — call again at once; `gap` — waiting for a transaction that holds
 * a lower sequence number, call again shortly; `busy` — another process holds the cursor;
 * `done` — caught up.
 */
export type FanOutPass = 'done' | 'more' | 'gap' | 'busy';

interface Gap {
  readonly sequence: bigint;
  /** `pg_snapshot_xmax` when the gap was first seen: every transaction that could hold the number is older. */
  readonly xmax: string;
  readonly seenAt: number;
}

/**
 * Deliveries of an active endpoint whose event types match (`*`, the exact type, or a
 * prefix wildcard `asset.*`), in the event's organization, created before the event
 * occurred; a ping goes to the endpoint it names alone. Events without an organization go
 * nowhere. The unique (endpoint, event) makes a repeated fan-out harmless.
 */
const FAN_OUT = `insert into ${DELIVERY_TABLE} ("organization_id", "endpoint_id", "event_sequence", "event_id", "event_type", "next_attempt_at")
  select e."organization_id", w."id", e."sequence", e."id", e."type", now()
  from ${OUTBOX} e join "operations"."webhook_endpoint" w on w."organization_id" = e."organization_id"
  where e."sequence" > $1::bigint and e."sequence" <= $2::bigint
    and case when e."type" = '${WEBHOOK_PING_EVENT}' then w."id"::text = e."payload" ->> 'endpointId'
      else w."active" and w."created_at" <= e."occurred_at" and exists (
        select 1 from unnest(w."event_types") as p("pattern")
        where p."pattern" = '*' or p."pattern" = e."type"
           or (right(p."pattern", 2) = '.*' and starts_with(e."type", left(p."pattern", -1))))
    end
  on conflict ("endpoint_id", "event_id") do nothing`;

/**
 * Turns outbox events into delivery rows, in the order of their sequence numbers, with the
 * cursor advanced in the same transaction (so a crash repeats a pass, never loses one).
 * Sequence numbers are taken before commit, so a lower number can become visible after a
 * higher one: a gap stops the cursor until every transaction that could hold the missing
 * number has ended (then the number was rolled back, or its event is visible) — see
 * docs/adr/0015-webhooks.md.
 */
export class WebhookFanOut {
  private gap: Gap | undefined;

  constructor(private readonly database: DispatchDatabase) {}

  pass(): Promise<FanOutPass> {
    return this.database.transaction(async (sql) => {
      const [cursor] = await sql<{ sequence: string }>(`select "sequence"::text as "sequence" from ${CURSOR} for update skip locked`);
      if (!cursor) return 'busy';
      // Numbers as text (bigint), ordered as numbers: the alias must not shadow the column in `order by`.
      const events = await sql<{ number: string }>(
        `select "sequence"::text as "number" from ${OUTBOX} where "sequence" > $1::bigint order by "sequence" limit $2`,
        [cursor.sequence, BATCH],
      );
      const start = BigInt(cursor.sequence);
      let position = start;
      for (const event of events) {
        if (BigInt(event.number) !== position + 1n) break;
        position += 1n;
      }
      let outcome: FanOutPass = events.length === BATCH ? 'more' : 'done';
      if (Number(position - start) < events.length) {
        const gap = await this.resolveGap(sql, position + 1n);
        if (gap === 'skip') position += 1n;
        outcome = gap === 'wait' ? 'gap' : 'more';
      }
      if (position === start) return outcome;
      await sql(FAN_OUT, [start.toString(), position.toString()]);
      await sql(`update ${CURSOR} set "sequence" = $1::bigint, "updated_at" = now()`, [position.toString()]);
      return outcome;
    });
  }

  /** Whether a missing sequence number may be passed over (`skip`), has appeared, or must be waited for. */
  private async resolveGap(sql: Sql, sequence: bigint): Promise<'skip' | 'appeared' | 'wait'> {
    if (this.gap?.sequence !== sequence) {
      const [now] = await sql<{ xmax: string }>(`select pg_snapshot_xmax(pg_current_snapshot())::text as "xmax"`);
      this.gap = { sequence, xmax: now!.xmax, seenAt: Date.now() };
      return 'wait';
    }
    if (Date.now() - this.gap.seenAt < GAP_GRACE_MS) return 'wait';
    const [state] = await sql<{ ended: boolean; present: boolean }>(
      `select pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 as "ended",
         exists (select 1 from ${OUTBOX} where "sequence" = $2::bigint) as "present"`,
      [this.gap.xmax, sequence.toString()],
    );
    if (!state!.ended) return 'wait';
    this.gap = undefined;
    return state!.present ? 'appeared' : 'skip';
  }
}
