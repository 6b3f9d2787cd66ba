import type { EntityManager } from '@mikro-orm/postgresql';
import { Movement, type MovementData, type MovementOpValue, type MovementStatusValue } from '../../../contracts/operations/eam/types.js';
import { cursorList } from '../core/cursor-list.js';
import { recordMapper } from '../core/rows.js';
import { AssetMovementEntity } from './asset-movement.entity.js';

/**
 * The movements journal (seed 002): every asset move, conservation and repair writes an
 * applied entry in the transaction of the change, and only those (docs/adr/0038).
 * Maintenance has its own record, a decommission the asset's columns and `asset_decommission`.
 */

const TABLE = '"operations"."asset_movement"';
const toMovement = recordMapper<MovementData>(Movement);

export interface MovementEntry {
  readonly organizationId: string;
  readonly actorId: string;
  readonly assetId: string;
  readonly op: MovementOpValue;
  readonly fromObjectId: string | null;
  readonly toObjectId: string | null;
  readonly reason?: string | null;
  /** The repair record of a `to_repair` or `from_repair` entry. */
  readonly maintenanceId?: string | null;
}

/** Writes one applied journal entry and returns its id. */
export async function recordMovement(em: EntityManager, entry: MovementEntry): Promise<string> {
  const movement = em.create(AssetMovementEntity, {
    organizationId: entry.organizationId,
    assetId: entry.assetId,
    op: entry.op,
    status: 'applied',
    fromObjectId: entry.fromObjectId,
    toObjectId: entry.toObjectId,
    actorId: entry.actorId,
    reason: entry.reason ?? null,
    maintenanceId: entry.maintenanceId ?? null,
  });
  await em.flush();
  return movement.id;
}

export interface MovementFilters {
  readonly assetId?: string;
  readonly objectId?: string;
  readonly op?: MovementOpValue;
  readonly status?: MovementStatusValue;
  readonly dateFrom?: string;
  readonly dateTo?: string;
  readonly cursor?: string;
  readonly limit: number;
}

export class MovementService {
  /** Newest first; object-scoped callers see entries touching their objects (row-level security). */
  async list(em: EntityManager, filters: MovementFilters) {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, ...values: unknown[]) => {
      where.push(sql);
      params.push(...values);
    };
    if (filters.assetId) add(`"asset_id" = ?`, filters.assetId);
    if (filters.objectId) add(`("from_object_id" = ? or "to_object_id" = ?)`, filters.objectId, filters.objectId);
    if (filters.op) add(`"op" = ?`, filters.op);
    if (filters.status) add(`"status" = ?`, filters.status);
    if (filters.dateFrom) add(`"occurred_at" >= ?::timestamptz`, filters.dateFrom);
    if (filters.dateTo) add(`"occurred_at" < ?::timestamptz`, filters.dateTo);
    return cursorList(em, { table: TABLE, where, params, orderBy: 'occurred_at', direction: 'desc' }, filters, toMovement);
  }
}
