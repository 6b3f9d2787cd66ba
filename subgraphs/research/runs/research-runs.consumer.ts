import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import type { SubgraphOrm } from '../../shared/orm.js';
import type { QueueConsumer } from '../../shared/queues/queue-hub.js';
import { newId } from '../access/key-secret.js';
import { anamnesisOf } from '../assistant/anamnesis.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import type { RunJob } from '../queues.js';
import { unqueuedIds } from '../unqueued.js';
import { ThreadEntity } from '../threads/thread.entity.js';
import { runView, type ThreadStore } from '../threads/thread.store.js';
import { ReportEntity, ResearchRunEntity, type ResearchRun } from './research-run.entity.js';
import { publishThreadEvent } from '../threads/thread-events.js';
import type { ReportResult } from './research-provider.js';

/** What a failed run tells the user; nothing of the provider's error. */
export const RUN_FAILURE = 'The research could not be completed; its credits were refunded.';

/** A row of `research_run` as a conditional state change answers it. */
type RunRecord = Record<string, unknown>;

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
    private readonly logger: Logger,
  ) {}

  readonly process = async ({ runId }: RunJob): Promise<void> => {
    const em = this.orm.em.fork();
    const run = await this.running(em, runId);
    if (!run) return;
    const result = await this.providers.researcher(run.mode).research(anamnesisOf(run.anamnesis));
    await withAfterCommit(em, this.logger, (tx) => this.complete(tx, run, result));
  };

  readonly exhausted = async ({ runId }: RunJob): Promise<void> => {
    await withAfterCommit(this.orm.em.fork(), this.logger, async (tx) => {
      // raw SQL: the change is conditional on the run's status and answers the row, in one statement.
      const [row] = await tx.execute<RunRecord[]>(
        `update "research"."research_run" set "status" = 'failed', "failure" = ?, "refunded" = true, "finished_at" = now()
         where "id" = ? and "status" in ('queued', 'running') returning *`,
        [RUN_FAILURE, runId],
      );
      if (!row) return;
      const run = tx.map(ResearchRunEntity, row);
      await this.ledger.post(tx, {
        workspaceId: run.workspaceId,
        mode: run.mode,
        delta: run.creditsCharged,
        kind: 'research_refund',
        reference: run.id,
      });
      await publishThreadEvent(tx, { threadId: run.threadId, type: 'run_failed', run: runView(run) });
    });
  };

  readonly recover = async () =>
    (await unqueuedIds(this.orm, ResearchRunEntity, 'queued')).map((runId) => ({ id: runId, data: { runId } }));

  /** The run, moved to `running` (and announced) on its first attempt; undefined when it is finished. */
  private async running(em: EntityManager, runId: string): Promise<ResearchRun | undefined> {
    return withAfterCommit(em, this.logger, async (tx) => {
      // raw SQL: the change is conditional on the run's status and answers the row, in one statement.
      const [row] = await tx.execute<RunRecord[]>(
        `update "research"."research_run" set "status" = 'running', "started_at" = now()
         where "id" = ? and "status" = 'queued' returning *`,
        [runId],
      );
      if (row) {
        const moved = tx.map(ResearchRunEntity, row);
        await publishThreadEvent(tx, { threadId: moved.threadId, type: 'run_running', run: runView(moved) });
        return moved;
      }
      return (await tx.findOne(ResearchRunEntity, { id: runId, status: 'running' }, { refresh: true })) ?? undefined;
    });
  }

  private async complete(tx: EntityManager, run: ResearchRun, result: ReportResult): Promise<void> {
    const thread = await this.store.byId(tx, run.threadId, true);
    const reportId = newId('report');
    // raw SQL: the change is conditional on the run's status and answers the row, in one statement.
    const [row] = await tx.execute<RunRecord[]>(
      `update "research"."research_run" set "status" = 'completed', "report_id" = ?, "finished_at" = now()
       where "id" = ? and "status" = 'running' returning *`,
      [reportId, run.id],
    );
    if (!row || !thread) return;
    const done = tx.map(ResearchRunEntity, row);
    const { meta } = result;
    tx.create(ReportEntity, {
      id: reportId,
      threadId: thread.id,
      runId: done.id,
      anamnesisHash: done.anamnesisHash,
      summaryText: result.summaryText,
      reportJson: result.report,
      provider: meta.provider,
      model: meta.model,
      promptTokens: meta.promptTokens,
      completionTokens: meta.completionTokens,
      upstreamRequestId: meta.requestId,
      createdAt: done.startedAt!,
    });
    await tx.flush();
    await tx.nativeUpdate(ThreadEntity, { id: thread.id }, { latestCompletedReportId: reportId, updatedAt: raw('now()') });
    const updated = (await this.store.byId(tx, thread.id))!;
    const snapshot = await this.store.snapshot(tx, updated);
    await publishThreadEvent(tx, {
      threadId: thread.id,
      type: 'run_completed',
      run: runView(done),
      reportStaleness: snapshot.reportStaleness,
    });
  }
}
