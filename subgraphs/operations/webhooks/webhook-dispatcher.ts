import pg from 'pg';
import type { Logger } from '../../../runtime/logger.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { CONNECT_TIMEOUT_MS, DispatchDatabase, WEBHOOK_WAKE_CHANNEL } from './webhook-dispatch-database.js';
import { WebhookFanOut } from './webhook-fan-out.js';
import { WebhookSender, type ClaimedDelivery } from './webhook-sender.js';

export interface DispatcherOptions {
  /** The slow poll behind `LISTEN`, in case a notification is lost. @default 15000 */
  readonly pollMs?: number;
  /** Attempts in flight at once, per process. @default 16 */
  readonly concurrency?: number;
  /** `WEBHOOK_ALLOW_PRIVATE`: send to loopback and private addresses too. @default false */
  readonly allowPrivate?: boolean;
  /** `OUTBOX_RETENTION_DAYS`: delivered outbox events older than this are pruned hourly. @default 7 */
  readonly outboxRetentionDays?: number;
}

/** A gap in the outbox's sequence is looked at again after this long. */
const GAP_RECHECK_MS = 1000;
/** After an error (database down), the next pass waits this long. */
const ERROR_RETRY_MS = 5000;
const RECONNECT_MAX_MS = 30_000;
const PURGE_EVERY_MS = 3_600_000;
const LISTENER_NAME = 'qantara-webhooks-listener';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Sends the outbox's events to webhook endpoints, in every process that runs the operations
 * subgraph: woken by `LISTEN operations_events` (a dedicated connection, reconnected when it
 * drops), by a timer for the next due retry, and by a slow poll. Each pass fans new events out
 * into deliveries, then claims due deliveries up to the free attempt slots; attempts run
 * beside the loop and wake it when they end. Stopping waits for attempts in flight (each ends
 * within its 10 s timeout); one cut short by a crash is sent again when its lease runs out.
 */
export class WebhookDispatcher {
  private readonly database: DispatchDatabase;
  private readonly fanOut: WebhookFanOut;
  private readonly sender: WebhookSender;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly outboxRetentionDays: number;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = true;
  private again = false;
  private loop: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectMs = 1000;
  private lastPurge = 0;

  constructor(
    private readonly connectionString: string,
    box: SecretBox,
    private readonly logger: Logger,
    options: DispatcherOptions = {},
  ) {
    this.database = new DispatchDatabase(connectionString);
    this.fanOut = new WebhookFanOut(this.database);
    this.sender = new WebhookSender(this.database, box, { allowPrivate: options.allowPrivate ?? false });
    this.pollMs = options.pollMs ?? 15_000;
    this.concurrency = options.concurrency ?? 16;
    this.outboxRetentionDays = options.outboxRetentionDays ?? 7;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.listen();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = undefined;
    // A connection still being opened to a database that is down may never end: do not wait long for it.
    if (listener) await Promise.race([listener.end().catch(() => undefined), delay(1000)]);
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.database.end();
  }

  /** Asks for a pass; one runs at a time, and a wake during a pass makes it go round again. */
  private wake(): void {
    if (this.stopped) return;
    this.again = true;
    this.loop ??= this.run().finally(() => {
      this.loop = undefined;
      if (this.again) this.wake();
    });
  }

  private async run(): Promise<void> {
    clearTimeout(this.timer);
    let wait = this.pollMs;
    for (;;) {
      while (this.again && !this.stopped) {
        this.again = false;
        try {
          const fanOut = await this.fanOut.pass();
          if (fanOut === 'more') this.again = true;
          if (fanOut === 'gap' || fanOut === 'busy') wait = Math.min(wait, GAP_RECHECK_MS);
          if (await this.sendDue()) this.again = true;
          await this.purgeHourly();
        } catch (error) {
          if (this.stopped) return;
          this.logger.warn({ err: error }, 'webhook dispatch pass failed; retrying');
          this.again = false;
          this.schedule(ERROR_RETRY_MS);
          return;
        }
      }
      if (this.stopped) return;
      const next = await this.nextWake(wait);
      // Woken while reading when the next retry is due: go round again rather than sleep.
      if (this.again) continue;
      this.schedule(next);
      return;
    }
  }

  /** Claims what the free slots allow; true when every slot was filled (more may be due). */
  private async sendDue(): Promise<boolean> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return false;
    const claimed = await this.sender.claim(free);
    for (const delivery of claimed) {
      const attempt: Promise<void> = this.deliver(delivery).finally(() => {
        this.inFlight.delete(attempt);
        this.wake();
      });
      this.inFlight.add(attempt);
    }
    return claimed.length === free;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const outcome = await this.sender.attempt(delivery);
    try {
      await this.sender.record(delivery, outcome);
    } catch (error) {
      // Unrecorded, the claim's lease runs out and the delivery is sent again: receivers dedupe by webhook-id.
      this.logger.warn({ err: error, delivery: delivery.id }, 'webhook attempt could not be recorded');
    }
  }

  private async purgeHourly(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    await this.purge();
  }

  /** Settled deliveries and delivered outbox events past their retention; answers how many events went. */
  async purge(): Promise<number> {
    const pruned = await this.sender.purge(this.outboxRetentionDays);
    if (pruned > 0) this.logger.info({ pruned }, 'pruned delivered outbox events');
    return pruned;
  }

  /** Until the next due retry, within the poll; full slots are woken by their attempts instead. */
  private async nextWake(wait: number): Promise<number> {
    if (this.inFlight.size >= this.concurrency) return wait;
    const due = await this.sender.nextDueInMs().catch(() => null);
    return due === null ? wait : Math.max(50, Math.min(wait, due));
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ms);
    this.timer.unref();
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: LISTENER_NAME,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    this.listener = client;
    client.on('notification', () => this.wake());
    client.on('error', (error) => this.dropped(client, error));
    client.on('end', () => this.dropped(client));
    try {
      await client.connect();
      // raw SQL: LISTEN on a dedicated connection for the wake-up notifications.
      await client.query(`listen "${WEBHOOK_WAKE_CHANNEL}"`);
      this.reconnectMs = 1000;
      // Events committed while no one listened are caught up at once.
      this.wake();
    } catch (error) {
      this.dropped(client, error);
    }
  }

  private dropped(client: pg.Client, error?: unknown): void {
    if (client !== this.listener) return;
    this.listener = undefined;
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({ err: error, retryInMs: this.reconnectMs }, 'webhook listener connection lost; reconnecting');
    this.reconnectTimer = setTimeout(() => void this.listen(), this.reconnectMs);
    this.reconnectTimer.unref();
    this.reconnectMs = Math.min(this.reconnectMs * 2, RECONNECT_MAX_MS);
  }
}
