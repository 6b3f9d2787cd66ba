import type { EntityManager } from '@mikro-orm/postgresql';
import { CHAT_TURN_CREDITS, type KeyMode } from '../../../contracts/research/account-types.js';
import type { SubgraphOrm } from '../../shared/orm.js';
import type { QueueConsumer } from '../../shared/queues/queue-hub.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { Providers } from '../providers.js';
import type { TurnJob } from '../queues.js';
import { MESSAGE_COLUMNS, messageView, type ThreadStore } from '../threads/thread.store.js';
import { publishThreadEvent } from '../threads/thread-events.js';
import { anamnesisHash, anamnesisOf, assessGaps, mergeAnamnesis } from './anamnesis.js';
import type { TurnResult } from './assistant-provider.js';

/** What a failed turn says; its credit is given back. */
export const FAILED_TEXT = 'Sorry, the assistant could not answer this message. Your credit was refunded; please send it again.';

interface PendingTurn {
  id: string;
  thread_id: string;
  position: number;
  mode: KeyMode;
  workspace_id: string;
}

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
  ) {}

  readonly process = async ({ messageId }: TurnJob): Promise<void> => {
    const em = this.orm.em.fork();
    const turn = await this.pending(em, messageId);
    if (!turn) return;
    const thread = await this.store.byId(em, turn.thread_id);
    const history = await em.execute<Array<{ role: 'user' | 'assistant'; content: string }>>(
      `select "role", "content" from "research"."message"
       where "thread_id" = ? and "position" < ? and "status" = 'complete' and "outcome" is distinct from 'failed' order by "position"`,
      [turn.thread_id, turn.position],
    );
    const result = await this.providers.assistant(turn.mode).turn({ anamnesis: anamnesisOf(thread?.anamnesis), history });
    await em.transactional((tx) => this.complete(tx as EntityManager, turn, result));
  };

  readonly exhausted = async ({ messageId }: TurnJob): Promise<void> => {
    await this.orm.em.fork().transactional(async (work) => {
      const tx = work as EntityManager;
      const [row] = await tx.execute<Array<Parameters<typeof messageView>[0] & { thread_id: string }>>(
        `update "research"."message" m set "content" = ?, "status" = 'complete', "outcome" = 'failed', "charge" = 'refunded',
           "completed_at" = now()
         where m."id" = ? and m."status" = 'pending' returning ${MESSAGE_COLUMNS}, "thread_id"`,
        [FAILED_TEXT, messageId],
      );
      if (!row) return;
      const thread = (await this.store.byId(tx, row.thread_id))!;
      // Gives back what was reserved: nothing for a turn that was free.
      const [reserved] = await tx.execute<Array<{ delta: number }>>(
        `select "delta" from "research"."credit_ledger" where "kind" = 'chat_reserve' and "reference" = ?`,
        [messageId],
      );
      await this.ledger.post(tx, {
        workspaceId: thread.workspace_id,
        mode: thread.mode,
        delta: reserved ? -reserved.delta : CHAT_TURN_CREDITS,
        kind: 'chat_refund',
        reference: messageId,
      });
      await publishThreadEvent(tx, { threadId: thread.id, type: 'assistant_reply_failed', message: messageView(row) });
    });
  };

  /** Turns accepted but not queued (an add lost after its commit), older than a few seconds. */
  readonly recover = async () => {
    const rows = await this.orm.em
      .fork()
      .execute<Array<{ id: string }>>(
        `select "id" from "research"."message" where "status" = 'pending' and "created_at" < now() - interval '5 seconds' order by "created_at" limit 500`,
      );
    return rows.map((row) => ({ id: row.id, data: { messageId: row.id } }));
  };

  private async pending(em: EntityManager, messageId: string): Promise<PendingTurn | undefined> {
    const [row] = await em.execute<PendingTurn[]>(
      `select m."id", m."thread_id", m."position", t."mode", t."workspace_id"
       from "research"."message" m join "research"."thread" t on t."id" = m."thread_id"
       where m."id" = ? and m."status" = 'pending'`,
      [messageId],
    );
    return row;
  }

  private async complete(tx: EntityManager, turn: PendingTurn, result: TurnResult): Promise<void> {
    const thread = await this.store.byId(tx, turn.thread_id, true);
    const { meta } = result;
    const [row] = await tx.execute<Array<Parameters<typeof messageView>[0]>>(
      `update "research"."message" set "content" = ?, "status" = 'complete', "outcome" = 'answered', "charge" = 'settled',
         "provider" = ?, "model" = ?, "prompt_tokens" = ?, "completion_tokens" = ?, "upstream_request_id" = ?, "completed_at" = now()
       where "id" = ? and "status" = 'pending' returning ${MESSAGE_COLUMNS}`,
      [result.reply, meta.provider, meta.model, meta.promptTokens, meta.completionTokens, meta.requestId, turn.id],
    );
    if (!row || !thread) return;
    const anamnesis = mergeAnamnesis(anamnesisOf(thread.anamnesis), result.update);
    const gapAssessment = assessGaps(anamnesis);
    const [updated] = await tx.execute<Array<typeof thread>>(
      `update "research"."thread" set "anamnesis" = ?::jsonb, "anamnesis_hash" = ?, "gap_assessment" = ?::jsonb, "updated_at" = now()
       where "id" = ? returning *`,
      [JSON.stringify(anamnesis), anamnesisHash(anamnesis), JSON.stringify(gapAssessment), thread.id],
    );
    const snapshot = await this.store.snapshot(tx, updated!);
    await publishThreadEvent(tx, {
      threadId: thread.id,
      type: 'assistant_reply_completed',
      message: messageView(row),
      anamnesis: snapshot.anamnesis,
      gapAssessment: snapshot.gapAssessment,
      reportStaleness: snapshot.reportStaleness,
    });
  }
}
