import { Migration } from '@mikro-orm/migrations';
import { topicFeed } from '../../../contracts/subscription.js';
import { wakeAfterCommitDdl } from '../../shared/events/topic-feed.js';

/**
 * The operations topic feed's trigger leaves the `NOTIFY` to a writer that asks for it
 * (`app.topic_wake_after_commit`): the saga engine wakes a saga's readers once a step has
 * committed, so step commits no longer wait single file on the lock PostgreSQL takes for the
 * commit of a transaction that sent a `NOTIFY` (docs/adr/0048-sagas-that-scale-with-workers.md).
 * Every other writer is unchanged.
 */
export class Migration20261127150000_saga_wake_after_commit extends Migration {
  static readonly migrationName = 'Migration20261127150000_saga_wake_after_commit';

  override up(): void {
    this.addSql(wakeAfterCommitDdl(topicFeed('operations')));
  }
}
