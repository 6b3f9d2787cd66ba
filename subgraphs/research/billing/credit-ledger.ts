import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import { ResearchError } from '../research.errors.js';
import { CreditBalanceEntity, CreditLedgerEntryEntity } from './credit.entity.js';

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
    const where = { workspaceId: entry.workspaceId, mode: entry.mode };
    const held = await em.findOne(CreditBalanceEntity, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!held) throw ResearchError.workspaceNotFound();
    if (entry.reference !== null) {
      const seen = await em.count(CreditLedgerEntryEntity, { kind: entry.kind, reference: entry.reference });
      if (seen > 0) return null;
    }
    const balance = held.balance + entry.delta;
    if (balance < 0) throw ResearchError.insufficientCredits(held.balance, -entry.delta);
    held.balance = balance;
    const posted = em.create(CreditLedgerEntryEntity, {
      ...where,
      delta: entry.delta,
      balanceAfter: balance,
      kind: entry.kind,
      reference: entry.reference,
      reason: entry.reason ?? null,
    });
    await em.flush();
    return { entryId: String(posted.id), balance };
  }

  async balance(em: EntityManager, workspaceId: string, mode: KeyMode): Promise<number> {
    const held = await em.findOne(CreditBalanceEntity, { workspaceId, mode }, { refresh: true });
    return held?.balance ?? 0;
  }
}
