import type { EntityManager } from '@mikro-orm/postgresql';
import { FuelIssueEntity } from './fuel-ledger.entity.js';
import { reverseEntry, type Ledger, type LedgerRow } from './ledger.js';
import { addToTank, takeFromTank } from './tanks.js';

/** An issue of fuel out of a tank (or the reversal of one), as the ledger keeps it. */
export interface FuelIssue {
  readonly id: string;
  readonly tankId: string;
  readonly kind: 'issue' | 'reversal';
  /** Exact decimal text, e.g. `"12.5"`. */
  readonly liters: string;
  readonly balanceAfterLiters: string;
  readonly reversalOfId: string | null;
  readonly referenceType: string | null;
  readonly referenceId: string | null;
}

export interface IssueOptions {
  readonly actorId: string | null;
  /** What the fuel was issued for, e.g. `prd.shift-report.fuel` and the entry's id. */
  readonly referenceType?: string;
  readonly referenceId?: string;
  readonly sagaId?: string;
  readonly occurredAt?: string;
}

const ISSUES: Ledger = {
  table: '"operations"."fuel_issue"',
  entity: 'Fuel issue',
  quantity: 'liters',
  copied: ['liters', 'reference_type', 'reference_id', 'saga_id'],
};

const toIssue = (row: LedgerRow): FuelIssue => ({
  id: row.id,
  tankId: row.tank_id,
  kind: row.kind as FuelIssue['kind'],
  liters: String(row.liters),
  balanceAfterLiters: String(row.balance_after_liters),
  reversalOfId: (row.reversal_of_id as string | null) ?? null,
  referenceType: (row.reference_type as string | null) ?? null,
  referenceId: (row.reference_id as string | null) ?? null,
});

/**
 * Issuing fuel from a tank, for the shift-report saga (no route of its own): run inside
 * the caller's tenant transaction; the balance never goes below zero (422
 * `FUEL_BALANCE_INSUFFICIENT`), and falling to the minimum level publishes the low-stock
 * event. `reverseIssue` is its compensation: a counter-entry giving the litres back.
 */
export class FuelIssueService {
  async issueFuel(em: EntityManager, tankId: string, liters: number | string, options: IssueOptions): Promise<FuelIssue> {
    const tank = await takeFromTank(em, tankId, liters);
    const issue = em.create(FuelIssueEntity, {
      organizationId: tank.organization_id,
      tankId: tank.id,
      objectId: tank.object_id,
      kind: 'issue',
      liters: String(liters),
      referenceType: options.referenceType ?? null,
      referenceId: options.referenceId ?? null,
      sagaId: options.sagaId ?? null,
      actorId: options.actorId,
      // Without a time of its own, the database's `now()` (the column's default).
      ...(options.occurredAt ? { occurredAt: new Date(options.occurredAt) } : {}),
      balanceAfterLiters: String(tank.current_balance_liters),
    });
    await em.flush();
    return {
      id: issue.id,
      tankId: issue.tankId,
      kind: issue.kind,
      liters: issue.liters,
      balanceAfterLiters: issue.balanceAfterLiters,
      reversalOfId: issue.reversalOfId ?? null,
      referenceType: issue.referenceType ?? null,
      referenceId: issue.referenceId ?? null,
    };
  }

  /** Gives an issue's litres back to its tank as a counter-entry; an issue is reversed once (409 after). */
  async reverseIssue(em: EntityManager, issueId: string, options: { actorId: string | null; reason: string }): Promise<FuelIssue> {
    const row = await reverseEntry(em, ISSUES, issueId, { actorId: options.actorId, reason: options.reason }, (tankId, liters) =>
      addToTank(em, tankId, liters, 'liters'),
    );
    return toIssue(row);
  }
}
