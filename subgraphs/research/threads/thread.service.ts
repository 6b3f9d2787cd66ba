import { IsolationLevel, raw, type EntityManager } from '@mikro-orm/postgresql';
import { CHAT_TURN_CREDITS } from '../../../contracts/research/account-types.js';
import type { GapAssessmentData, MessageData } from '../../../contracts/research/case-types.js';
import type { ContractInput } from '../../../contracts/operation.js';
import type { researchThreadEvents } from '../../../contracts/research/events.contract.js';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import type { QueueHub } from '../../shared/queues/queue-hub.js';
import { newId } from '../access/key-secret.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { anamnesisHash, assessGaps, emptyAnamnesis } from '../assistant/anamnesis.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import { ASSISTANT_TURNS, queueAfterCommit, type TurnJob } from '../queues.js';
import { MessageEntity, ThreadEntity, type Thread } from './thread.entity.js';
import { messageView, type ThreadStore } from './thread.store.js';
import { threadEvents } from './thread-events.js';
import { cursorList, researchId } from '../cursor-list.js';
import { isoTime, type DbTime } from '../time.js';

/** A case as its list reads it. */
interface ListedThread {
  id: string;
  anamnesis: unknown;
  gap_assessment: GapAssessmentData;
  message_count: number;
  latest_completed_report_id: string | null;
  created_at: DbTime;
  updated_at: DbTime;
  pending: boolean;
}

const THREAD_ID = researchId('thread');

/** What a pending assistant message says until its reply is written. */
export const WAITING_TEXT = 'The assistant is reading your message…';

/**
 * Cases: a message is accepted in the call's transaction — the user's message, the assistant's
 * pending one, 1 credit reserved against the pending one (0 for a live turn the offline
 * rules answer) — and its turn is queued after that commit. Nothing here starts research.
 */
export class ThreadService {
  constructor(
    private readonly store: ThreadStore,
    private readonly ledger: CreditLedger,
    private readonly queues: QueueHub,
    private readonly logger: Logger,
    private readonly providers: Providers,
  ) {}

  async list(em: EntityManager, caller: WorkspaceActor, page: { cursor?: string; limit: number }) {
    return cursorList(
      em,
      {
        table: '"research"."thread"',
        // With whether each case awaits a reply.
        select: `t.*, exists (select 1 from "research"."message" m where m."thread_id" = t."id" and m."status" = 'pending') as "pending"`,
        owner: { workspace_id: caller.workspaceId, mode: caller.mode },
        orderBy: 'updated_at',
        direction: 'desc',
        id: THREAD_ID,
      },
      page,
      (listed) => {
        const row = listed as unknown as ListedThread;
        const summary = String((row.anamnesis as { ideaSummary?: unknown }).ideaSummary ?? '');
        return {
          id: row.id,
          title: summary.length > 80 ? `${summary.slice(0, 79)}…` : summary,
          messageCount: row.message_count,
          readinessStatus: row.gap_assessment.readinessStatus,
          assistantPending: row.pending,
          latestCompletedReportId: row.latest_completed_report_id,
          createdAt: isoTime(row.created_at),
          updatedAt: isoTime(row.updated_at),
        };
      },
    );
  }

  /** One consistent snapshot: a reply committing meanwhile shows in the messages and the anamnesis, or in neither. */
  async read(em: EntityManager, caller: WorkspaceActor, threadId: string) {
    return withAfterCommit(
      em,
      this.logger,
      async (tx) => {
        const row = await this.store.find(tx, caller, threadId);
        const snapshot = await this.store.snapshot(tx, row);
        const messages = await this.store.messages(tx, row.id);
        const runs = await this.store.runs(tx, row.id);
        return { ...snapshot, messages, runs };
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
  }

  /** The snapshot with its newest assistant message picked out, and whether a reply is still pending. */
  async readWithReply(em: EntityManager, caller: WorkspaceActor, threadId: string) {
    const view = await this.read(em, caller, threadId);
    const latestReply = view.messages.findLast((message) => message.role === 'assistant') ?? null;
    return { ...view, latestReply, assistantPending: view.messages.some((message) => message.status === 'pending') };
  }

  /**
   * Waits until no assistant reply of the case is pending, or `timeoutSeconds` pass, reading
   * the case at growing intervals (from 100 ms, up to 1 s); answers the snapshot either way.
   */
  async waitForReply(em: EntityManager, caller: WorkspaceActor, threadId: string, timeoutSeconds: number, signal?: AbortSignal) {
    const deadline = Date.now() + timeoutSeconds * 1000;
    let pause = 100;
    for (;;) {
      const snapshot = await this.readWithReply(em, caller, threadId);
      const left = deadline - Date.now();
      if (!snapshot.assistantPending || left <= 0 || signal?.aborted) return snapshot;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(pause * 2, 1000);
    }
  }

  async events(em: EntityManager, caller: WorkspaceActor, input: ContractInput<typeof researchThreadEvents>) {
    await this.store.find(em, caller, input.threadId);
    return threadEvents(em, input.threadId, input.after, input.limit);
  }

  /** Accepts a message for a new case (no `threadId`) or an existing one; answers the snapshot with the reply pending. */
  async accept(em: EntityManager, caller: WorkspaceActor, threadId: string | undefined, message: string) {
    const thread = threadId ? await this.store.find(em, caller, threadId, true) : await this.open(em, caller);
    const userMessage = await this.insertMessage(em, thread, thread.messageCount + 1, 'user', message);
    const assistantMessage = await this.insertMessage(em, thread, thread.messageCount + 2, 'assistant', WAITING_TEXT);
    await em.nativeUpdate(ThreadEntity, { id: thread.id }, { messageCount: raw('"message_count" + 2'), updatedAt: raw('now()') });
    const updated = await this.store.byId(em, thread.id);
    const snapshot = await this.store.snapshot(em, updated!);
    // Last, so the balance row stays locked only until the commit that follows. A live
    // turn the offline rules answer is recorded at 0 credits, with the reason.
    const free = this.providers.freeReason(caller.mode, 'turn');
    await this.ledger.post(em, {
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      delta: free ? 0 : -CHAT_TURN_CREDITS,
      kind: 'chat_reserve',
      reference: assistantMessage.id,
      ...(free && { reason: free }),
    });
    const messageId = assistantMessage.id;
    queueAfterCommit<TurnJob>(em, this.queues, this.logger, {
      spec: ASSISTANT_TURNS,
      id: messageId,
      data: { messageId },
      what: 'assistant turn',
    });
    return { assistantMessage, userMessage, ...snapshot };
  }

  private async open(tx: EntityManager, caller: WorkspaceActor): Promise<Thread> {
    const anamnesis = emptyAnamnesis();
    const thread = tx.create(ThreadEntity, {
      id: newId('thread'),
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      anamnesis,
      anamnesisHash: anamnesisHash(anamnesis),
      gapAssessment: assessGaps(anamnesis),
      messageCount: 0,
    });
    await tx.flush();
    return thread;
  }

  private async insertMessage(
    tx: EntityManager,
    thread: Thread,
    position: number,
    role: 'user' | 'assistant',
    content: string,
  ): Promise<MessageData> {
    const pending = role === 'assistant';
    const inserted = tx.create(MessageEntity, {
      id: newId('msg'),
      threadId: thread.id,
      position,
      role,
      content,
      status: pending ? 'pending' : 'complete',
      charge: pending ? 'reserved' : null,
    });
    await tx.flush();
    return messageView(inserted);
  }
}
