import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import type { AnamnesisData, GapAssessmentData, MessageData, RunData } from '../../../contracts/research/case-types.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { anamnesisOf } from '../assistant/anamnesis.js';
import { ResearchError } from '../research.errors.js';
import { isoTime, isoTimeOrNull, type DbTime } from '../time.js';

/**
 * Reading cases from PostgreSQL as their safe views. Every query names its columns:
 * provider, model, token counts, request ids and report JSON are stored in the same
 * tables and must never be selected here.
 */

export interface ThreadRow {
  id: string;
  workspace_id: string;
  mode: KeyMode;
  anamnesis: unknown;
  anamnesis_hash: string;
  gap_assessment: GapAssessmentData;
  message_count: number;
  latest_completed_report_id: string | null;
  created_at: DbTime;
  updated_at: DbTime;
}

/** Whose cases a reader may see: its workspace, in its key's mode. */
const THREAD_COLUMNS = `"id", "workspace_id", "mode", "anamnesis", "anamnesis_hash", "gap_assessment", "message_count",
  "latest_completed_report_id", "created_at", "updated_at"`;

interface MessageRow {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: 'pending' | 'complete';
  created_at: DbTime;
}

export const MESSAGE_COLUMNS = `"id", "role", "content", "status", "created_at"`;

export const messageView = (row: MessageRow): MessageData => ({
  id: row.id,
  role: row.role,
  content: row.content,
  status: row.status,
  createdAt: isoTime(row.created_at),
});

export interface RunRow {
  id: string;
  thread_id: string;
  status: RunData['status'];
  anamnesis: unknown;
  gap_assessment: GapAssessmentData;
  credits_charged: number;
  refunded: boolean;
  report_id: string | null;
  failure: string | null;
  created_at: DbTime;
  started_at: DbTime | null;
  finished_at: DbTime | null;
}

export const RUN_COLUMNS = `"id", "thread_id", "status", "anamnesis", "gap_assessment", "credits_charged", "refunded", "report_id",
  "failure", "created_at", "started_at", "finished_at"`;

export const runView = (row: RunRow): RunData => ({
  id: row.id,
  status: row.status,
  creditsCharged: row.credits_charged,
  refunded: row.refunded,
  reportId: row.report_id,
  failure: row.failure,
  createdAt: isoTime(row.created_at),
  startedAt: isoTimeOrNull(row.started_at),
  finishedAt: isoTimeOrNull(row.finished_at),
});

interface ReportRow {
  id: string;
  run_id: string;
  anamnesis_hash: string;
  summary_text: string;
  created_at: DbTime;
  completed_at: DbTime;
}

export class ThreadStore {
  /** The case if the owner may see it, locked for the transaction when asked; else 404 as if it did not exist. */
  async find(em: EntityManager, owner: WorkspaceActor, threadId: string, lock = false): Promise<ThreadRow> {
    const [row] = await em.execute<ThreadRow[]>(
      `select ${THREAD_COLUMNS} from "research"."thread" where "id" = ? and "workspace_id" = ? and "mode" = ?${lock ? ' for update' : ''}`,
      [threadId, owner.workspaceId, owner.mode],
    );
    if (!row) throw ResearchError.threadNotFound();
    return row;
  }

  /** The case whoever owns it, for consumers acting on their own jobs. */
  async byId(em: EntityManager, threadId: string, lock = false): Promise<ThreadRow | undefined> {
    const [row] = await em.execute<ThreadRow[]>(
      `select ${THREAD_COLUMNS} from "research"."thread" where "id" = ?${lock ? ' for update' : ''}`,
      [threadId],
    );
    return row;
  }

  async messages(em: EntityManager, threadId: string): Promise<MessageData[]> {
    const rows = await em.execute<MessageRow[]>(
      `select ${MESSAGE_COLUMNS} from "research"."message" where "thread_id" = ? order by "position"`,
      [threadId],
    );
    return rows.map(messageView);
  }

  async runs(em: EntityManager, threadId: string): Promise<RunData[]> {
    const rows = await em.execute<RunRow[]>(
      `select ${RUN_COLUMNS} from "research"."research_run" where "thread_id" = ? order by "created_at", "id"`,
      [threadId],
    );
    return rows.map(runView);
  }

  private reports(em: EntityManager, threadId: string): Promise<ReportRow[]> {
    return em.execute<ReportRow[]>(
      `select "id", "run_id", "anamnesis_hash", "summary_text", "created_at", "completed_at"
       from "research"."report" where "thread_id" = ? order by "completed_at", "id"`,
      [threadId],
    );
  }

  /** The blocks every case answer carries: anamnesis, gap assessment, staleness and the thread block. */
  async snapshot(em: EntityManager, row: ThreadRow) {
    const reports = await this.reports(em, row.id);
    const latest = reports.find((report) => report.id === row.latest_completed_report_id);
    return {
      anamnesis: anamnesisOf(row.anamnesis) as AnamnesisData,
      gapAssessment: row.gap_assessment,
      reportStaleness: {
        isStale: latest !== undefined && latest.anamnesis_hash !== row.anamnesis_hash,
        latestCompletedReportId: row.latest_completed_report_id,
      },
      thread: {
        id: row.id,
        latestCompletedReportId: row.latest_completed_report_id,
        messageCount: row.message_count,
        reports: reports.map((report) => ({
          id: report.id,
          runId: report.run_id,
          createdAt: isoTime(report.created_at),
          completedAt: isoTime(report.completed_at),
          summaryText: report.summary_text,
        })),
        createdAt: isoTime(row.created_at),
        updatedAt: isoTime(row.updated_at),
      },
    };
  }
}
