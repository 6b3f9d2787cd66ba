import type { EntityManager } from '@mikro-orm/postgresql';
import { Asset, type AssetData } from '../../../contracts/operations/eam/types.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { ProductionObjectEntity } from '../reference-books/reference-book.entity.js';
import type { AssetState } from './machines.js';

/** Reading asset rows, shared by the asset and maintenance services. */

export const ASSET_TABLE = '"operations"."asset"';
export const toAsset = recordMapper<AssetData>(Asset);

export interface AssetRow {
  readonly id: string;
  readonly organization_id: string;
  readonly status: AssetState;
  readonly current_object_id: string;
  readonly maintenance_id: string | null;
  readonly [column: string]: unknown;
}

/**
 * The asset, locked for the rest of the transaction so concurrent actions on it apply one
 * after the other; missing, foreign and out-of-scope assets alike are not found.
 */
export async function lockAsset(em: EntityManager, id: string): Promise<AssetRow> {
  // raw SQL: `for no key update` (no ORM lock mode), which lets rows referencing the asset be written meanwhile.
  const [row] = await em.execute<AssetRow[]>(`select * from ${ASSET_TABLE} where "id" = ? for no key update`, [id]);
  if (!row) throw OperationsError.notFound('Asset');
  return row;
}

/** Throws not found unless the production object exists and the caller may see it. */
export async function visibleObject(em: EntityManager, id: string): Promise<void> {
  if ((await em.count(ProductionObjectEntity, { id, deletedAt: null })) === 0) throw OperationsError.notFound('Production object');
}
