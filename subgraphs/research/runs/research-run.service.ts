import type { EntityManager } from '@mikro-orm/postgresql';
import { RESEARCH_RUN_CREDITS } from '../../../contracts/research/account-types.js';
import type { Logger } from '../../../runtime/logger.js';
import type { QueueHub } from '../../shared/queues/queue-hub.js';
import { newId } from '../access/key-secret.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { anamnesisOf } from '../assistant/anamnesis.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import { RESEARCH_RUNS, queueAfterCommit, type RunJob } from '../queues.js';
import { ResearchError } from '../research.errors.js';
import type { Thread } from '../threads/thread.entity.js';
import { reportView, runView, type ThreadStore } from '../threads/thread.store.js';
import { ReportEntity, ResearchRunEntity, type Report, type ResearchRun } from './research-run.entity.js';
import { publishThreadEvent } from '../threads/thread-events.js';

interface Started {
  readonly reused: boolean;
  readonly queued: boolean;
  readonly run: ResearchRun;
  readonly report: Report | null;
  readonly thread: Thread;
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

  /** In the call's transaction, which also queues the run once it commits. */
  async start(em: EntityManager, caller: WorkspaceActor, threadId: string, force: boolean) {
    const started = await this.claim(em, caller, threadId, force);
    if (started.queued) {
      // After the call's commit, so the consumer finds the run.
      const runId = started.run.id;
      queueAfterCommit<RunJob>(em, this.queues, this.logger, { spec: RESEARCH_RUNS, id: runId, data: { runId }, what: 'research run' });
    }
    const snapshot = await this.store.snapshot(em, started.thread);
    const report = started.report;
    return {
      reused: started.reused,
      runId: started.run.id,
      run: runView(started.run),
      anamnesisSnapshot: anamnesisOf(started.run.anamnesis),
      gapAssessment: started.run.gapAssessment,
      reportStaleness: snapshot.reportStaleness,
      thread: snapshot.thread,
      report: report ? reportView(report) : null,
    };
  }

  /** A run of the caller's case and, once it completed, its full report (never provider, model or token data). */
  async report(em: EntityManager, caller: WorkspaceActor, threadId: string, runId: string) {
    const thread = await this.store.find(em, caller, threadId);
    const run = await em.findOne(ResearchRunEntity, { id: runId, threadId: thread.id }, { refresh: true });
    if (!run) throw ResearchError.runNotFound();
    const report = await em.findOne(ReportEntity, { runId: run.id }, { populate: ['reportJson'] });
    return {
      threadId: thread.id,
      run: runView(run),
      report: report ? { ...reportView(report), reportJson: report.reportJson } : null,
    };
  }

  private async claim(tx: EntityManager, caller: WorkspaceActor, threadId: string, force: boolean): Promise<Started> {
    const thread = await this.store.find(tx, caller, threadId, true);
    if (anamnesisOf(thread.anamnesis).ideaSummary.trim() === '') throw ResearchError.threadNotReady();
    if (!force) {
      const report = await tx.findOne(
        ReportEntity,
        { threadId: thread.id, anamnesisHash: thread.anamnesisHash },
        { orderBy: { completedAt: 'desc' } },
      );
      if (report) {
        const run = await tx.findOneOrFail(ResearchRunEntity, { id: report.runId }, { refresh: true });
        return { reused: true, queued: false, run, report, thread };
      }
    }
    const active = await tx.findOne(
      ResearchRunEntity,
      { threadId: thread.id, anamnesisHash: thread.anamnesisHash, status: { $in: ['queued', 'running'] } },
      { orderBy: { createdAt: 'desc' }, refresh: true },
    );
    if (active) return { reused: false, queued: false, run: active, report: null, thread };
    const free = this.providers.freeReason(caller.mode, 'run');
    const price = free ? 0 : RESEARCH_RUN_CREDITS;
    const run = tx.create(ResearchRunEntity, {
      id: newId('run'),
      threadId: thread.id,
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      status: 'queued',
      anamnesis: thread.anamnesis,
      anamnesisHash: thread.anamnesisHash,
      gapAssessment: thread.gapAssessment,
      creditsCharged: price,
      refunded: false,
    });
    await tx.flush();
    await this.ledger.post(tx, {
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      delta: -price,
      kind: 'research_charge',
      reference: run.id,
      ...(free && { reason: free }),
    });
    await publishThreadEvent(tx, { threadId: thread.id, type: 'run_queued', run: runView(run) });
    return { reused: false, queued: true, run, report: null, thread };
  }
}
