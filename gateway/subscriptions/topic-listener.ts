import pg from 'pg';
import type { TopicFeed } from '../../contracts/subscription.js';
import type { Logger } from '../../runtime/logger.js';

/**
 * Reads a service's topic feed for the gateway's subscriptions: one `LISTEN` connection
 * per feed wakes the subscribers of the notified topic, and each subscriber reads its
 * topic after the last sequence it delivered. Reading by sequence (not by notification)
 * means nothing is lost when notifications are merged, when several events commit at
 * once, or while the connection is re-established: every subscriber re-reads then.
 */

export interface FeedEvent {
  readonly sequence: number;
  readonly payload: Record<string, unknown>;
}

interface Subscriber {
  dirty: boolean;
  wake: (() => void) | undefined;
}

const PAGE = 100;

export class TopicListener {
  private readonly pool: pg.Pool;
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly feed: TopicFeed,
    private readonly logger: Logger,
  ) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    this.pool.on('error', () => undefined);
  }

  /** The topic's events after `after`, in order, until `signal` aborts. */
  async *subscribe(topic: string, after: number, signal: AbortSignal): AsyncGenerator<FeedEvent> {
    const subscriber: Subscriber = { dirty: true, wake: undefined };
    const stop = () => subscriber.wake?.();
    signal.addEventListener('abort', stop, { once: true });
    this.add(topic, subscriber);
    try {
      await this.listening();
      let cursor = after;
      while (!signal.aborted && !this.closed) {
        subscriber.dirty = false;
        const events = await this.read(topic, cursor);
        for (const event of events) {
          if (signal.aborted) return;
          cursor = event.sequence;
          yield event;
        }
        if (events.length === PAGE || subscriber.dirty) continue;
        await new Promise<void>((resolve) => (subscriber.wake = resolve));
        subscriber.wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', stop);
      this.remove(topic, subscriber);
    }
  }

  private add(topic: string, subscriber: Subscriber): void {
    let set = this.subscribers.get(topic);
    if (!set) this.subscribers.set(topic, (set = new Set()));
    set.add(subscriber);
  }

  private remove(topic: string, subscriber: Subscriber): void {
    const set = this.subscribers.get(topic);
    set?.delete(subscriber);
    if (set?.size === 0) this.subscribers.delete(topic);
  }

  private async read(topic: string, after: number): Promise<FeedEvent[]> {
    const { rows } = await this.pool.query<{ sequence: string; payload: Record<string, unknown> }>(
      `select "sequence", "payload" from ${this.feed.events} where "topic" = $1 and "sequence" > $2 order by "sequence" limit ${PAGE}`,
      [topic, after],
    );
    return rows.map((row) => ({ sequence: Number(row.sequence), payload: row.payload }));
  }

  private notify(subscribers: Iterable<Subscriber>): void {
    for (const subscriber of subscribers) {
      subscriber.dirty = true;
      subscriber.wake?.();
    }
  }

  /** The LISTEN connection, opened on first use and re-opened after a loss (every subscriber then re-reads). */
  private listening(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      const set = message.payload ? this.subscribers.get(message.payload) : undefined;
      if (set) this.notify(set);
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error, channel: this.feed.channel }, 'subscription feed connection lost');
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.reconnect(), 500).unref();
    });
    await client.connect();
    // raw SQL: LISTEN on a dedicated connection for the feed's notifications.
    await client.query(`listen "${this.feed.channel}"`);
    this.client = client;
  }

  private async reconnect(): Promise<void> {
    if (this.closed || this.subscribers.size === 0) return;
    try {
      await this.listening();
      this.notify([...this.subscribers.values()].flatMap((set) => [...set]));
    } catch (error) {
      this.logger.warn({ err: error }, 'subscription feed reconnect failed; retrying');
      setTimeout(() => void this.reconnect(), 1000).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.notify([...this.subscribers.values()].flatMap((set) => [...set]));
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
    await this.pool.end();
  }
}
