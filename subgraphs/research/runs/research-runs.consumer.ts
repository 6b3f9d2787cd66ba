import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import type { SubgraphOrm } from '../../shared/orm.js';
import type { QueueConsumer } from '../../shared/queues/queue-hub.js';
import { newId } from '../access/key-secret.js';
import { anamnesisOf } from '../assistant/anamnesis.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import type { RunJob } from '../queues.js';
import { RUN_COLUMNS, runView, type RunRow, type ThreadStore } from '../threads/thread.store.js';
import { publishThreadEvent } from '../threads/thread-events.js';
import type { ReportResult } from './research-provider.js';

/** What a failed run tells the user; nothing of the provider's error. */
export const RUN_FAILURE = 'The research could not be completed; its credits were refunded.';

type OwnedRun = RunRow & { workspace_id: string; mode: KeyMode };

/**
 * The consumer of `research-runs`: queued → running (published), the provider writes the
 * report outside any transaction, then the report is stored whole and the run completed
 * in one commit with `run_completed`. A run whose attempts are spent fails and is
 * refunded, once (the ledger's reference is the run).
 */
export class ResearchRuns implements QueueConsumer<RunJob> {
  readonly concurrency = 2;

  constructor(
    private readonly orm: SubgraphOrm,
    private readonly store: ThreadStore,
    private readonly ledger: CreditLedger,
    private readonly providers: Providers,
  ) {}

  readonly process = async ({ runId }: RunJob): Promise<void> => {
    const em = this.orm.em.fork();
    const run = await this.running(em, runId);
    if (!run) return;
    const result = await this.providers.researcher(run.mode).research(anamnesisOf(run.anamnesis));
    await em.transactional((tx) => this.complete(tx as EntityManager, run, result));
  };

  readonly exhausted = async ({ runId }: RunJob): Promise<void> => {
    await this.orm.em.fork().transactional(async (work) => {
      const tx = work as EntityManager;
      const [run] = await tx.execute<OwnedRun[]>(
        `update "research"."research_run" set "status" = 'failed', "failure" = ?, "refunded" = true, "finished_at" = now()
         where "id" = ? and "status" in ('queued', 'running') returning ${RUN_COLUMNS}, "workspace_id", "mode"`,
        [RUN_FAILURE, runId],
      );
      if (!run) return;
      await this.ledger.post(tx, {
        workspaceId: run.workspace_id,
        mode: run.mode,
        delta: run.credits_charged,
        kind: 'research_refund',
        reference: run.id,
      });
      await publishThreadEvent(tx, { threadId: run.thread_id, type: 'run_failed', run: runView(run) });
    });
  };

  readonly recover = async () => {
    const rows = await this.orm.em
      .fork()
      .execute<Array<{ id: string }>>(
        `select "id" from "research"."research_run" where "status" = 'queued' and "created_at" < now() - interval '5 seconds' order by "created_at" limit 500`,
      );
    return rows.map((row) => ({ id: row.id, data: { runId: row.id } }));
  };

  /** The run, moved to `running` (and announced) on its first attempt; undefined when it is finished. */
  private async running(em: EntityManager, runId: string): Promise<OwnedRun | undefined> {
    return em.transactional(async (work) => {
      const tx = work as EntityManager;
      const [moved] = await tx.execute<OwnedRun[]>(
        `update "research"."research_run" set "status" = 'running', "started_at" = now()
         where "id" = ? and "status" = 'queued' returning ${RUN_COLUMNS}, "workspace_id", "mode"`,
        [runId],
      );
      if (moved) {
        await publishThreadEvent(tx, { threadId: moved.thread_id, type: 'run_running', run: runView(moved) });
        return moved;
      }
      const [current] = await tx.execute<OwnedRun[]>(
        `select ${RUN_COLUMNS}, "workspace_id", "mode" from "research"."research_run" where "id" = ? and "status" = 'running'`,
        [runId],
      );
      return current;
    });
  }

  private async complete(tx: EntityManager, run: OwnedRun, result: ReportResult): Promise<void> {
    const thread = await this.store.byId(tx, run.thread_id, true);
    const reportId = newId('report');
    const [done] = await tx.execute<RunRow[]>(
      `update "research"."research_run" set "status" = 'completed', "report_id" = ?, "finished_at" = now()
       where "id" = ? and "status" = 'running' returning ${RUN_COLUMNS}`,
      [reportId, run.id],
    );
    if (!done || !thread) return;
    const { meta } = result;
    await tx.execute(
      `insert into "research"."report" ("id", "thread_id", "run_id", "anamnesis_hash", "summary_text", "report_json", "provider", "model",
         "prompt_tokens", "completion_tokens", "upstream_request_id", "created_at")
       select ?, ?, ?, r."anamnesis_hash", ?, ?::jsonb, ?, ?, ?, ?, ?, r."started_at" from "research"."research_run" r where r."id" = ?`,
      [
        reportId,
        thread.id,
        run.id,
        result.summaryText,
        JSON.stringify(result.report),
        meta.provider,
        meta.model,
        meta.promptTokens,
        meta.completionTokens,
        meta.requestId,
        run.id,
      ],
    );
    const [updated] = await tx.execute<Array<typeof thread>>(
      `update "research"."thread" set "latest_completed_report_id" = ?, "updated_at" = now() where "id" = ? returning *`,
      [reportId, thread.id],
    );
    const snapshot = await this.store.snapshot(tx, updated!);
    await publishThreadEvent(tx, {
      threadId: thread.id,
      type: 'run_completed',
      run: runView(done),
      reportStaleness: snapshot.reportStaleness,
    });
  }
}
