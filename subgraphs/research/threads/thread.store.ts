import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { AnamnesisData, MessageData, RunData } from '../../../contracts/research/case-types.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { anamnesisOf } from '../assistant/anamnesis.js';
import { ResearchError } from '../research.errors.js';
import { ReportEntity, ResearchRunEntity, type Report, type ResearchRun } from '../runs/research-run.entity.js';
import { isoTime, isoTimeOrNull } from '../time.js';
import { MessageEntity, ThreadEntity, type Message, type Thread } from './thread.entity.js';

/**
 * Reading cases from PostgreSQL as their safe views. Provider, model, token counts, request ids
 * and report JSON are stored in the same tables; the entities map them lazy, so they are never
 * selected here.
 */

export const messageView = (message: Message): MessageData => ({
  id: message.id,
  role: message.role,
  content: message.content,
  status: message.status,
  createdAt: isoTime(message.createdAt),
});

export const runView = (run: ResearchRun): RunData => ({
  id: run.id,
  status: run.status,
  creditsCharged: run.creditsCharged,
  refunded: run.refunded,
  reportId: run.reportId ?? null,
  failure: run.failure ?? null,
  createdAt: isoTime(run.createdAt),
  startedAt: isoTimeOrNull(run.startedAt ?? null),
  finishedAt: isoTimeOrNull(run.finishedAt ?? null),
});

/** A report as cases show it (`ReportSummary`): never its JSON, provider, model or token data. */
export const reportView = (report: Report) => ({
  id: report.id,
  runId: report.runId,
  createdAt: isoTime(report.createdAt),
  completedAt: isoTime(report.completedAt),
  summaryText: report.summaryText,
});

/** Read as stored now (not as this context last saw it), locked for the transaction when asked. */
const current = (lock: boolean) => (lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : { refresh: true });

export class ThreadStore {
  /** The case if the owner may see it, locked for the transaction when asked; else 404 as if it did not exist. */
  async find(em: EntityManager, owner: WorkspaceActor, threadId: string, lock = false): Promise<Thread> {
    const thread = await em.findOne(ThreadEntity, { id: threadId, workspaceId: owner.workspaceId, mode: owner.mode }, current(lock));
    if (!thread) throw ResearchError.threadNotFound();
    return thread;
  }

  /** The case whoever owns it, for consumers acting on their own jobs. */
  async byId(em: EntityManager, threadId: string, lock = false): Promise<Thread | null> {
    return em.findOne(ThreadEntity, { id: threadId }, current(lock));
  }

  async messages(em: EntityManager, threadId: string): Promise<MessageData[]> {
    const messages = await em.find(MessageEntity, { threadId }, { orderBy: { position: 'asc' }, refresh: true });
    return messages.map(messageView);
  }

  async runs(em: EntityManager, threadId: string): Promise<RunData[]> {
    const runs = await em.find(ResearchRunEntity, { threadId }, { orderBy: { createdAt: 'asc', id: 'asc' }, refresh: true });
    return runs.map(runView);
  }

  /** The blocks every case answer carries: anamnesis, gap assessment, staleness and the thread block. */
  async snapshot(em: EntityManager, thread: Thread) {
    const reports = await em.find(ReportEntity, { threadId: thread.id }, { orderBy: { completedAt: 'asc', id: 'asc' } });
    const latestId = thread.latestCompletedReportId ?? null;
    const latest = reports.find((report) => report.id === latestId);
    return {
      anamnesis: anamnesisOf(thread.anamnesis) as AnamnesisData,
      gapAssessment: thread.gapAssessment,
      reportStaleness: {
        isStale: latest !== undefined && latest.anamnesisHash !== thread.anamnesisHash,
        latestCompletedReportId: latestId,
      },
      thread: {
        id: thread.id,
        latestCompletedReportId: latestId,
        messageCount: thread.messageCount,
        reports: reports.map(reportView),
        createdAt: isoTime(thread.createdAt),
        updatedAt: isoTime(thread.updatedAt),
      },
    };
  }
}
