import type { EntityManager } from '@mikro-orm/postgresql';
import type { TopicFeed } from '../../../contracts/subscription.js';
import type { Logger } from '../../../runtime/logger.js';

/** How often a process prunes its service's delivered events. */
export const PRUNE_EVERY_MS = 3_600_000;

/**
 * Deletes a topic feed's events older than `days`. Subscribers resume from a sequence number
 * of their own, so an event is delivered once it has been published to the live listeners;
 * the retention is how far back a reconnecting subscriber may resume. The topic heads keep
 * the last sequence, so numbering never restarts.
 */
export async function pruneTopicFeed(em: EntityManager, feed: TopicFeed, days: number): Promise<number> {
  // raw SQL: bulk delete of the expired events of a feed table named by the feed, counted in the same statement.
  const rows = await em.execute<Array<{ pruned: number }>>(
    `with gone as (delete from ${feed.events} where "occurred_at" < now() - make_interval(days => ?) returning 1)
     select count(*)::int as "pruned" from gone`,
    [days],
  );
  return rows[0]?.pruned ?? 0;
}

/**
 * Runs a service's pruning at start and then hourly, beside the requests (a timer that does
 * not keep the process alive); several processes may prune at once, deletes being idempotent.
 * A failure is logged and tried again at the next turn.
 */
export class EventPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly prune: () => Promise<number>,
    private readonly logger: Logger,
    private readonly everyMs = PRUNE_EVERY_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.everyMs);
    this.timer.unref();
    void this.runOnce();
  }

  /** One pruning now (or the one already running); never throws. */
  runOnce(): Promise<void> {
    this.running ??= this.prune()
      .then((pruned) => {
        if (pruned > 0) this.logger.info({ pruned }, 'pruned delivered events past their retention');
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'pruning delivered events failed; trying again later'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
