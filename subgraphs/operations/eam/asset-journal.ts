import type { EntityManager } from '@mikro-orm/postgresql';
import type { MovementOpValue } from '../../../contracts/operations/eam/types.js';
import type { Principal } from '../core/principal.js';
import type { AssetRow } from './assets.js';
import { recordMovement } from './movements.js';

/** What a journal entry of a service's change says beyond the asset, the caller and the op. */
export interface AssetJournalDetails {
  readonly reason: string | undefined;
  /** Where the asset ends up; by default the object it stands at (the row read before the change). */
  readonly toObjectId?: string | null;
  /** The repair record of a `to_repair` or `from_repair` entry. */
  readonly maintenanceId?: string;
}

/**
 * The applied journal entry of a change the caller made to `asset` (moves, conservation, repairs),
 * written in the change's transaction from the asset's object as it was read under its lock.
 */
export async function journalAssetChange(
  em: EntityManager,
  caller: Principal,
  asset: AssetRow,
  op: MovementOpValue,
  { reason, toObjectId = asset.current_object_id, maintenanceId }: AssetJournalDetails,
): Promise<void> {
  await recordMovement(em, {
    organizationId: asset.organization_id,
    actorId: caller.userId,
    assetId: asset.id,
    op,
    fromObjectId: asset.current_object_id,
    toObjectId,
    reason,
    maintenanceId,
  });
}
