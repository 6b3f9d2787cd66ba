import type { EntityManager } from '@mikro-orm/postgresql';
import { defineStateMachine } from '../core/state-machine.js';
import { AssetDecommissionEntity } from './asset-decommission.entity.js';

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
  return em.insert(AssetDecommissionEntity, {
    organizationId: entry.organizationId,
    assetId: entry.assetId,
    status: entry.status,
    objectId: entry.objectId,
    actorId: entry.actorId,
    reason: entry.reason,
    sagaId: entry.sagaId ?? null,
  });
}
