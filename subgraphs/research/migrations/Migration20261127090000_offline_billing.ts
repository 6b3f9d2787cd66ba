import { Migration } from '@mikro-orm/migrations';

/**
 * Free live work is recorded: a live turn or run the offline rules serve (no LLM configured)
 * posts a movement of 0 credits whose reason says why. Every other movement still moves credits.
 */
export class Migration20261127090000_offline_billing extends Migration {
  static readonly migrationName = 'Migration20261127090000_offline_billing';

  override up(): void {
    this.addSql(`alter table "research"."credit_ledger" drop constraint "credit_ledger_delta_check"`);
    this.addSql(
      `alter table "research"."credit_ledger" add constraint "credit_ledger_delta_check"
         check ("delta" <> 0 or "reason" in ('offline_assistant', 'offline_report'))`,
    );
  }
}
