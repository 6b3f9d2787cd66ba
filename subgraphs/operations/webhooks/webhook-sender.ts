import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { VERSION } from '../../../contracts/version.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { iso } from '../core/rows.js';
import { DELIVERY_TABLE, deliveryMachine } from './webhook-deliveries.service.js';
import type { DispatchDatabase } from './webhook-dispatch-database.js';
import { checkTarget, TargetRefused, type CheckedAddress, type TargetPolicy } from './webhook-target.js';

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
  /** No further attempt: the target is refused (`WEBHOOK_ALLOW_PRIVATE`), so retrying cannot help. */
  readonly final?: boolean;
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
    private readonly targets: TargetPolicy = { allowPrivate: false },
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
    // Resolved again at every attempt, and the connection goes to the address that was checked (no DNS-rebinding gap).
    let target: CheckedAddress;
    try {
      target = await checkTarget(delivery.url, this.targets);
    } catch (error) {
      if (error instanceof TargetRefused) return { delivered: false, status: null, error: `target refused: ${error.message}`, final: true };
      return { delivered: false, status: null, error: describeFailure(error) };
    }
    try {
      const response = await post(delivery.url, target, body, {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': delivery.event_id,
        'webhook-timestamp': signed.timestamp,
        'webhook-signature': signed.signature,
      });
      if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status, error: null };
      const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
      const excerpt = response.excerpt;
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
           "status" = case when $1::boolean then 'delivered' when "attempts" >= "max_attempts" or $8::boolean then 'failed' else 'pending' end,
           "delivered_at" = case when $1::boolean then now() end,
           "next_attempt_at" = case when $1::boolean or "attempts" >= "max_attempts" or $8::boolean then null
             else now() + make_interval(secs => $2) end,
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
          outcome.final === true,
        ],
      );
    });
  }

  /**
   * Settled deliveries older than their retention (pending ones are kept whatever their age),
   * then outbox events older than `outboxRetentionDays` that the fan-out has passed and no
   * delivery references any more. Answers how many events were pruned.
   */
  purge(outboxRetentionDays: number): Promise<number> {
    return this.database.transaction(async (sql) => {
      await sql(`delete from ${DELIVERY_TABLE} where "status" <> 'pending' and "updated_at" < now() - interval '${RETENTION_DAYS} days'`);
      const [row] = await sql<{ pruned: number }>(
        `with gone as (
           delete from "operations"."outbox_event" e
           where e."occurred_at" < now() - make_interval(days => $1)
             and e."sequence" <= (select "sequence" from "operations"."webhook_dispatch_cursor")
             and not exists (select 1 from ${DELIVERY_TABLE} d where d."event_sequence" = e."sequence")
           returning 1)
         select count(*)::int as "pruned" from gone`,
        [outboxRetentionDays],
      );
      return row?.pruned ?? 0;
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

/**
 * One POST to `url`, connected to `target` (the checked address; the URL's host still names
 * the server for `Host` and TLS). The answer's status and the start of its body, within
 * the attempt's timeout; the rest of the body is discarded unread. Redirects are answers.
 */
function post(
  url: string,
  target: CheckedAddress,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; excerpt: string }> {
  const parsed = new URL(url);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      parsed,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, agent: false },
      (response) => {
        bodyExcerpt(response).then((excerpt) => resolve({ status: response.statusCode ?? 0, excerpt }), reject);
      },
    );
    const timer = setTimeout(() => request.destroy(new AttemptTimeout()), ATTEMPT_TIMEOUT_MS);
    request.once('close', () => clearTimeout(timer));
    request.once('error', reject);
    request.end(body);
  });
}

class AttemptTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/** The start of an answer's body, for the log; the rest is discarded unread. */
function bodyExcerpt(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      response.removeAllListeners('data');
      response.destroy();
      resolve(Buffer.concat(chunks).subarray(0, BODY_EXCERPT_BYTES).toString('utf8').replace(/\s+/g, ' ').trim());
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= BODY_EXCERPT_BYTES) done();
    });
    response.once('end', done);
    response.once('close', done);
    response.once('error', (error) => (size > 0 ? done() : reject(error)));
  });
}

function describeFailure(error: unknown): string {
  const failure = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
  const cause = failure.cause?.code ?? failure.cause?.message;
  if (cause) return `${failure.message}: ${cause}`;
  return failure.code && !failure.message.includes(failure.code) ? `${failure.code}: ${failure.message}` : failure.message;
}
