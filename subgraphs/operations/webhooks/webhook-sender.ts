import { Webhook } from 'standardwebhooks';
import { VERSION } from '../../../contracts/version.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { iso } from '../core/rows.js';
import { DELIVERY_TABLE, deliveryMachine } from './webhook-deliveries.service.js';
import type { DispatchDatabase } from './webhook-dispatch-database.js';

/**
 * Waits after failed attempts 1…7, as Standard Webhooks recommends (5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h); the 8th failure is final. The migration's `max_attempts` default is 8.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
/** An attempt's answer must begin, and its body end, within this time. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** A claimed delivery whose process died is sent again after this lease (longer than an attempt can last). */
const LEASE_SECONDS = 60;
const ERROR_MAX_CHARS = 1000;
/** Bytes of a failed answer's body kept in `lastError`. */
const BODY_EXCERPT_BYTES = 300;
/** Settled deliveries are purged after this many days. */
const RETENTION_DAYS = 30;
const USER_AGENT = `Qantara-Webhooks/${VERSION}`;

/** A delivery claimed for one attempt, with what it needs to be sent. */
export interface ClaimedDelivery {
  readonly id: string;
  /** The attempt this claim is (1-based); the outcome is recorded only if the row still says so. */
  readonly attempts: number;
  readonly url: string;
  readonly secret_sealed: string;
  readonly previous_secret_sealed: string | null;
  readonly event_id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly occurred_at: unknown;
}

export interface AttemptOutcome {
  readonly delivered: boolean;
  readonly status: number | null;
  readonly error: string | null;
}

const PENDING = `{${deliveryMachine.transitions.deliver.from.join(',')}}`;

/**
 * Claims due deliveries (`for update skip locked`, so several processes share the work),
 * sends each as one signed POST, and records the outcome: delivered on a 2xx, else the next
 * attempt by the schedule, or failed after the last.
 */
export class WebhookSender {
  constructor(
    private readonly database: DispatchDatabase,
    private readonly box: SecretBox,
  ) {}

  claim(limit: number): Promise<ClaimedDelivery[]> {
    return this.database.transaction((sql) =>
      sql<ClaimedDelivery>(
        `with due as (
           select "id" from ${DELIVERY_TABLE} where "status" = 'pending' and "next_attempt_at" <= now()
           order by "next_attempt_at", "id" limit $1 for update skip locked)
         update ${DELIVERY_TABLE} d set "attempts" = d."attempts" + 1, "last_attempt_at" = now(),
           "next_attempt_at" = now() + interval '${LEASE_SECONDS} seconds', "updated_at" = now()
         from due, "operations"."webhook_endpoint" w, "operations"."outbox_event" e
         where d."id" = due."id" and w."id" = d."endpoint_id" and e."sequence" = d."event_sequence"
         returning d."id", d."attempts", w."url", w."secret_sealed",
           case when w."previous_secret_expires_at" > now() then w."previous_secret_sealed" end as "previous_secret_sealed",
           e."id" as "event_id", e."type", e."payload", e."occurred_at"`,
        [limit],
      ),
    );
  }

  /** One POST of `{type, timestamp, data}` with the Standard Webhooks headers; redirects are answers, not followed. */
  async attempt(delivery: ClaimedDelivery): Promise<AttemptOutcome> {
    const body = JSON.stringify({ type: delivery.type, timestamp: iso(delivery.occurred_at), data: delivery.payload });
    let signed: { timestamp: string; signature: string };
    try {
      signed = this.sign(delivery, body);
    } catch {
      return { delivered: false, status: null, error: 'the signing secret cannot be unsealed (was SECRETS_KEY changed?)' };
    }
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': delivery.event_id,
          'webhook-timestamp': signed.timestamp,
          'webhook-signature': signed.signature,
        },
        body,
      });
      const excerpt = await bodyExcerpt(response);
      if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status, error: null };
      const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
      return { delivered: false, status: response.status, error: `HTTP ${response.status}${redirect}${excerpt ? `: ${excerpt}` : ''}` };
    } catch (error) {
      return { delivered: false, status: null, error: describeFailure(error) };
    }
  }

  /** The outcome of the attempt a claim made; a claim whose lease ran out and was taken again records nothing. */
  record(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    const delay = RETRY_DELAYS_SECONDS[Math.min(delivery.attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? RETRY_DELAYS_SECONDS[0];
    return this.database.transaction(async (sql) => {
      await sql(
        `update ${DELIVERY_TABLE} set
           "status" = case when $1::boolean then 'delivered' when "attempts" >= "max_attempts" then 'failed' else 'pending' end,
           "delivered_at" = case when $1::boolean then now() end,
           "next_attempt_at" = case when $1::boolean or "attempts" >= "max_attempts" then null else now() + make_interval(secs => $2) end,
           "last_response_status" = $3, "last_error" = $4, "updated_at" = now()
         where "id" = $5 and "status" = any($6::text[]) and "attempts" = $7`,
        [
          outcome.delivered,
          delay,
          outcome.status,
          outcome.error?.slice(0, ERROR_MAX_CHARS) ?? null,
          delivery.id,
          PENDING,
          delivery.attempts,
        ],
      );
    });
  }

  /** Settled deliveries older than the retention; pending ones are kept whatever their age. */
  purge(): Promise<void> {
    return this.database.transaction(async (sql) => {
      await sql(`delete from ${DELIVERY_TABLE} where "status" <> 'pending' and "updated_at" < now() - interval '${RETENTION_DAYS} days'`);
    });
  }

  /** How long until the next pending delivery is due (ms; negative when overdue), or null when none is pending. */
  async nextDueInMs(): Promise<number | null> {
    const [row] = await this.database.transaction((sql) =>
      sql<{ ms: string | null }>(
        `select (extract(epoch from min("next_attempt_at") - now()) * 1000)::text as "ms" from ${DELIVERY_TABLE} where "status" = 'pending'`,
      ),
    );
    return row?.ms == null ? null : Number(row.ms);
  }

  /** One `v1,` signature per live secret (two for a day after a rotation), space-separated. */
  private sign(delivery: ClaimedDelivery, body: string): { timestamp: string; signature: string } {
    const now = new Date();
    const secrets = [delivery.secret_sealed, delivery.previous_secret_sealed].filter((sealed): sealed is string => Boolean(sealed));
    const signatures = secrets.map((sealed) => new Webhook(this.box.unseal(sealed)).sign(delivery.event_id, now, body));
    return { timestamp: String(Math.floor(now.getTime() / 1000)), signature: signatures.join(' ') };
  }
}

/** The start of an answer's body, for the log; the rest is discarded unread. */
async function bodyExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, BODY_EXCERPT_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
}

function describeFailure(error: unknown): string {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
  const cause = failure.cause?.code ?? failure.cause?.message;
  return cause ? `${failure.message}: ${cause}` : failure.message;
}
