import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import { ResearchError } from '../research.errors.js';

/**
 * The append-only credit ledger of a workspace and mode. Every movement locks the
 * balance row, so concurrent movements are serialized and the balance can never go below
 * zero (the column has a check as well); a movement with a `reference` (a checkout
 * session, a message, a run) is recorded at most once, so a webhook delivered twice or
 * a refund attempted twice moves nothing the second time. Runs in the caller's
 * transaction: the movement commits with the change it pays for.
 */

export type LedgerKind = 'grant' | 'top_up' | 'chat_reserve' | 'chat_refund' | 'research_charge' | 'research_refund';

export interface LedgerEntry {
  readonly workspaceId: string;
  readonly mode: KeyMode;
  /** Credits in (positive) or out (negative). */
  readonly delta: number;
  readonly kind: LedgerKind;
  readonly reference: string | null;
  readonly reason?: string;
}

export interface Posted {
  readonly entryId: string;
  readonly balance: number;
}

export class CreditLedger {
  /** Posts a movement; `null` when its reference was posted already. Too few credits → 402 with the balance. */
  async post(em: EntityManager, entry: LedgerEntry): Promise<Posted | null> {
    const [held] = await em.execute<Array<{ balance: number }>>(
      `select "balance" from "research"."credit_balance" where "workspace_id" = ? and "mode" = ? for update`,
      [entry.workspaceId, entry.mode],
    );
    if (!held) throw ResearchError.workspaceNotFound();
    if (entry.reference !== null) {
      const [seen] = await em.execute(`select 1 from "research"."credit_ledger" where "kind" = ? and "reference" = ?`, [
        entry.kind,
        entry.reference,
      ]);
      if (seen) return null;
    }
    const balance = held.balance + entry.delta;
    if (balance < 0) throw ResearchError.insufficientCredits(held.balance, -entry.delta);
    await em.execute(`update "research"."credit_balance" set "balance" = ? where "workspace_id" = ? and "mode" = ?`, [
      balance,
      entry.workspaceId,
      entry.mode,
    ]);
    const [row] = await em.execute<Array<{ id: string }>>(
      `insert into "research"."credit_ledger" ("workspace_id", "mode", "delta", "balance_after", "kind", "reference", "reason")
       values (?, ?, ?, ?, ?, ?, ?) returning "id"`,
      [entry.workspaceId, entry.mode, entry.delta, balance, entry.kind, entry.reference, entry.reason ?? null],
    );
    return { entryId: String(row!.id), balance };
  }

  async balance(em: EntityManager, workspaceId: string, mode: KeyMode): Promise<number> {
    const [row] = await em.execute<Array<{ balance: number }>>(
      `select "balance" from "research"."credit_balance" where "workspace_id" = ? and "mode" = ?`,
      [workspaceId, mode],
    );
    return row?.balance ?? 0;
  }
}
