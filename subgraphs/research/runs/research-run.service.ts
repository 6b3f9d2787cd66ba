import type { EntityManager } from '@mikro-orm/postgresql';
import { RESEARCH_RUN_CREDITS } from '../../../contracts/research/account-types.js';
import type { Logger } from '../../../runtime/logger.js';
import { whenCommitted } from '../../shared/after-commit.js';
import type { QueueHub } from '../../shared/queues/queue-hub.js';
import { newId } from '../access/key-secret.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { anamnesisOf } from '../assistant/anamnesis.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import { RESEARCH_RUNS, type RunJob } from '../queues.js';
import type { ReportJsonData } from './report-json.js';
import { ResearchError } from '../research.errors.js';
import { RUN_COLUMNS, runView, type RunRow, type ThreadRow, type ThreadStore } from '../threads/thread.store.js';
import { publishThreadEvent } from '../threads/thread-events.js';
import { isoTime, type DbTime } from '../time.js';

interface Started {
  readonly reused: boolean;
  readonly queued: boolean;
  readonly run: RunRow;
  readonly report: { id: string; run_id: string; summary_text: string; created_at: DbTime; completed_at: DbTime } | null;
  readonly thread: ThreadRow;
}

/**
 * Starting research, always explicitly. Under the case's row lock (so two starts at once
 * see each other): a completed report of exactly the current anamnesis is reused for free
 * unless `force`; a run of the same anamnesis already queued or running is returned
 * rather than charged twice; otherwise 30 credits are charged (0 for a live run the
 * offline rules write, with the reason in the ledger) and a run queued with a snapshot of
 * the anamnesis.
 */
export class ResearchRunService {
  constructor(
    private readonly store: ThreadStore,
    private readonly ledger: CreditLedger,
    private readonly queues: QueueHub,
    private readonly logger: Logger,
    private readonly providers: Providers,
  ) {}

  async start(em: EntityManager, caller: WorkspaceActor, threadId: string, force: boolean) {
    const started = await em.transactional((work) => this.claim(work as EntityManager, caller, threadId, force));
    if (started.queued) {
      // After the commit of an enclosing (idempotent) call's transaction, so the consumer finds the run.
      await whenCommitted(em, async () => {
        try {
          await this.queues.add<RunJob>(RESEARCH_RUNS, started.run.id, { runId: started.run.id });
        } catch (error) {
          this.logger.warn({ err: error, runId: started.run.id }, 'research run not queued; recovery will queue it');
        }
      });
    }
    const snapshot = await this.store.snapshot(em, started.thread);
    const report = started.report;
    return {
      reused: started.reused,
      runId: started.run.id,
      run: runView(started.run),
      anamnesisSnapshot: anamnesisOf(started.run.anamnesis),
      gapAssessment: started.run.gap_assessment,
      reportStaleness: snapshot.reportStaleness,
      thread: snapshot.thread,
      report: report
        ? {
            id: report.id,
            runId: report.run_id,
            createdAt: isoTime(report.created_at),
            completedAt: isoTime(report.completed_at),
            summaryText: report.summary_text,
          }
        : null,
    };
  }

  /** A run of the caller's case and, once it completed, its full report (never provider, model or token data). */
  async report(em: EntityManager, caller: WorkspaceActor, threadId: string, runId: string) {
    const thread = await this.store.find(em, caller, threadId);
    const [run] = await em.execute<RunRow[]>(`select ${RUN_COLUMNS} from "research"."research_run" where "id" = ? and "thread_id" = ?`, [
      runId,
      thread.id,
    ]);
    if (!run) throw ResearchError.runNotFound();
    const [report] = await em.execute<
      Array<{ id: string; run_id: string; summary_text: string; report_json: ReportJsonData; created_at: DbTime; completed_at: DbTime }>
    >(`select "id", "run_id", "summary_text", "report_json", "created_at", "completed_at" from "research"."report" where "run_id" = ?`, [
      run.id,
    ]);
    return {
      threadId: thread.id,
      run: runView(run),
      report: report
        ? {
            id: report.id,
            runId: report.run_id,
            createdAt: isoTime(report.created_at),
            completedAt: isoTime(report.completed_at),
            summaryText: report.summary_text,
            reportJson: report.report_json,
          }
        : null,
    };
  }

  private async claim(tx: EntityManager, caller: WorkspaceActor, threadId: string, force: boolean): Promise<Started> {
    const thread = await this.store.find(tx, caller, threadId, true);
    if (anamnesisOf(thread.anamnesis).ideaSummary.trim() === '') throw ResearchError.threadNotReady();
    if (!force) {
      const [report] = await tx.execute<Array<NonNullable<Started['report']>>>(
        `select "id", "run_id", "summary_text", "created_at", "completed_at" from "research"."report"
         where "thread_id" = ? and "anamnesis_hash" = ? order by "completed_at" desc limit 1`,
        [thread.id, thread.anamnesis_hash],
      );
      if (report) {
        const [run] = await tx.execute<RunRow[]>(`select ${RUN_COLUMNS} from "research"."research_run" where "id" = ?`, [report.run_id]);
        return { reused: true, queued: false, run: run!, report, thread };
      }
    }
    const [active] = await tx.execute<RunRow[]>(
      `select ${RUN_COLUMNS} from "research"."research_run"
       where "thread_id" = ? and "anamnesis_hash" = ? and "status" in ('queued', 'running') order by "created_at" desc limit 1`,
      [thread.id, thread.anamnesis_hash],
    );
    if (active) return { reused: false, queued: false, run: active, report: null, thread };
    const free = this.providers.freeReason(caller.mode, 'run');
    const price = free ? 0 : RESEARCH_RUN_CREDITS;
    const [run] = await tx.execute<RunRow[]>(
      `insert into "research"."research_run"
         ("id", "thread_id", "workspace_id", "mode", "status", "anamnesis", "anamnesis_hash", "gap_assessment", "credits_charged")
       values (?, ?, ?, ?, 'queued', ?::jsonb, ?, ?::jsonb, ?) returning ${RUN_COLUMNS}`,
      [
        newId('run'),
        thread.id,
        caller.workspaceId,
        caller.mode,
        JSON.stringify(thread.anamnesis),
        thread.anamnesis_hash,
        JSON.stringify(thread.gap_assessment),
        price,
      ],
    );
    await this.ledger.post(tx, {
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      delta: -price,
      kind: 'research_charge',
      reference: run!.id,
      ...(free && { reason: free }),
    });
    await publishThreadEvent(tx, { threadId: thread.id, type: 'run_queued', run: runView(run!) });
    return { reused: false, queued: true, run: run!, report: null, thread };
  }
}
