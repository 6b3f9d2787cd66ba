import type { EntityManager } from '@mikro-orm/postgresql';
import { defineStateMachine } from '../core/state-machine.js';

/**
 * The record of a decommission (`asset_decommission`): applied at once by the decommission
 * action; a `draft` the decommission saga applies when the asset is decommissioned, or marks
 * `failed` when it compensates. The movements journal takes only seed 002's movement kinds.
 */

export const DECOMMISSIONS = '"operations"."asset_decommission"';

export const decommissionMachine = defineStateMachine<'draft' | 'applied' | 'failed', 'apply' | 'fail'>({
  entity: 'Asset decommission',
  table: DECOMMISSIONS,
  column: 'status',
  transitions: {
    apply: { from: ['draft'], to: 'applied' },
    fail: { from: ['draft'], to: 'failed' },
  },
});

export interface DecommissionEntry {
  readonly organizationId: string;
  readonly actorId: string;
  readonly assetId: string;
  readonly objectId: string | null;
  readonly reason: string;
  readonly status: 'draft' | 'applied';
  readonly sagaId?: string;
}

/** Writes the record and returns its id. */
export async function recordDecommission(em: EntityManager, entry: DecommissionEntry): Promise<string> {
  const [row] = await em.execute<Array<{ id: string }>>(
    `insert into ${DECOMMISSIONS} ("organization_id", "asset_id", "status", "object_id", "actor_id", "reason", "saga_id")
     values (?, ?, ?, ?, ?, ?, ?) returning "id"`,
    [entry.organizationId, entry.assetId, entry.status, entry.objectId, entry.actorId, entry.reason, entry.sagaId ?? null],
  );
  return row!.id;
}
