import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { CHAT_TURN_CREDITS } from '../../../contracts/research/account-types.js';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import type { SubgraphOrm } from '../../shared/orm.js';
import type { QueueConsumer } from '../../shared/queues/queue-hub.js';
import { CreditLedgerEntryEntity } from '../billing/credit.entity.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import type { TurnJob } from '../queues.js';
import { MessageEntity, ThreadEntity, type Message } from '../threads/thread.entity.js';
import { messageView, type ThreadStore } from '../threads/thread.store.js';
import { publishThreadEvent } from '../threads/thread-events.js';
import { unqueuedIds } from '../unqueued.js';
import { anamnesisHash, anamnesisOf, assessGaps, mergeAnamnesis } from './anamnesis.js';
import type { TurnResult } from './assistant-provider.js';

/** What a failed turn says; its credit is given back. */
export const FAILED_TEXT = 'Sorry, the assistant could not answer this message. Your credit was refunded; please send it again.';

/** A pending assistant message: what its turn needs to know. */
type PendingTurn = Pick<Message, 'id' | 'threadId' | 'position'>;

/**
 * The consumer of `research-assistant-turns`: one job per pending assistant message.
 * The provider is called outside any transaction; its answer is applied under the case's
 * row lock (so turns of one case never overwrite each other's anamnesis), the reserved
 * credit is settled, and `assistant_reply_completed` is published in the same commit. A
 * turn whose attempts are spent is answered with an apology and its credit refunded.
 */
export class AssistantTurns implements QueueConsumer<TurnJob> {
  readonly concurrency = 4;

  constructor(
    private readonly orm: SubgraphOrm,
    private readonly store: ThreadStore,
    private readonly ledger: CreditLedger,
    private readonly providers: Providers,
    private readonly logger: Logger,
  ) {}

  readonly process = async ({ messageId }: TurnJob): Promise<void> => {
    const em = this.orm.em.fork();
    const turn = await em.findOne(MessageEntity, { id: messageId, status: 'pending' }, { fields: ['threadId', 'position'] });
    if (!turn) return;
    const thread = await this.store.byId(em, turn.threadId);
    if (!thread) return;
    const earlier = await em.find(
      MessageEntity,
      {
        threadId: turn.threadId,
        position: { $lt: turn.position },
        status: 'complete',
        $or: [{ outcome: null }, { outcome: { $ne: 'failed' } }],
      },
      { fields: ['role', 'content'], orderBy: { position: 'asc' } },
    );
    const history = earlier.map((message) => ({ role: message.role, content: message.content }));
    const result = await this.providers.assistant(thread.mode).turn({ anamnesis: anamnesisOf(thread.anamnesis), history });
    await withAfterCommit(em, this.logger, (tx) => this.complete(tx, turn, result));
  };

  readonly exhausted = async ({ messageId }: TurnJob): Promise<void> => {
    await withAfterCommit(this.orm.em.fork(), this.logger, async (tx) => {
      // raw SQL: the change is conditional on the message still pending and answers the row, in one statement.
      const [row] = await tx.execute<Array<Record<string, unknown>>>(
        `update "research"."message" m set "content" = ?, "status" = 'complete', "outcome" = 'failed', "charge" = 'refunded',
           "completed_at" = now()
         where m."id" = ? and m."status" = 'pending' returning *`,
        [FAILED_TEXT, messageId],
      );
      if (!row) return;
      const failed = tx.map(MessageEntity, row);
      const thread = (await this.store.byId(tx, failed.threadId))!;
      // Gives back what was reserved: nothing for a turn that was free.
      const reserved = await tx.findOne(CreditLedgerEntryEntity, { kind: 'chat_reserve', reference: messageId });
      await this.ledger.post(tx, {
        workspaceId: thread.workspaceId,
        mode: thread.mode,
        delta: reserved ? -reserved.delta : CHAT_TURN_CREDITS,
        kind: 'chat_refund',
        reference: messageId,
      });
      await publishThreadEvent(tx, { threadId: thread.id, type: 'assistant_reply_failed', message: messageView(failed) });
    });
  };

  /** Turns accepted but not queued (an add lost after its commit), older than a few seconds. */
  readonly recover = async () =>
    (await unqueuedIds(this.orm, MessageEntity, 'pending')).map((messageId) => ({ id: messageId, data: { messageId } }));

  private async complete(tx: EntityManager, turn: PendingTurn, result: TurnResult): Promise<void> {
    const thread = await this.store.byId(tx, turn.threadId, true);
    const { meta } = result;
    // raw SQL: the change is conditional on the message still pending and answers the row, in one statement.
    const [row] = await tx.execute<Array<Record<string, unknown>>>(
      `update "research"."message" set "content" = ?, "status" = 'complete', "outcome" = 'answered', "charge" = 'settled',
         "provider" = ?, "model" = ?, "prompt_tokens" = ?, "completion_tokens" = ?, "upstream_request_id" = ?, "completed_at" = now()
       where "id" = ? and "status" = 'pending' returning *`,
      [result.reply, meta.provider, meta.model, meta.promptTokens, meta.completionTokens, meta.requestId, turn.id],
    );
    if (!row || !thread) return;
    const anamnesis = mergeAnamnesis(anamnesisOf(thread.anamnesis), result.update);
    const gapAssessment = assessGaps(anamnesis);
    await tx.nativeUpdate(
      ThreadEntity,
      { id: thread.id },
      { anamnesis, anamnesisHash: anamnesisHash(anamnesis), gapAssessment, updatedAt: raw('now()') },
    );
    const snapshot = await this.store.snapshot(tx, (await this.store.byId(tx, thread.id))!);
    await publishThreadEvent(tx, {
      threadId: thread.id,
      type: 'assistant_reply_completed',
      message: messageView(tx.map(MessageEntity, row)),
      anamnesis: snapshot.anamnesis,
      gapAssessment: snapshot.gapAssessment,
      reportStaleness: snapshot.reportStaleness,
    });
  }
}
