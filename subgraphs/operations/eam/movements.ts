import type { EntityManager } from '@mikro-orm/postgresql';
import { Movement, type MovementData, type MovementOpValue, type MovementStatusValue } from '../../../contracts/operations/eam/types.js';
import { cursorList } from '../core/cursor-list.js';
import { recordMapper } from '../core/rows.js';
import { defineStateMachine, transition } from '../core/state-machine.js';
import { AssetMovementEntity } from './asset-movement.entity.js';

/**
 * The movements journal: every asset move, maintenance change, conservation, repair and
 * decommission writes an entry in the transaction of the change. An entry is `applied`
 * when it takes effect at once; a planned one (scheduled maintenance) is a `draft` until
 * it is applied or cancelled; sagas may mark their drafts `failed`.
 */

const TABLE = '"operations"."asset_movement"';
const toMovement = recordMapper<MovementData>(Movement);

export const movementMachine = defineStateMachine<MovementStatusValue, 'apply' | 'cancel' | 'fail'>({
  entity: 'Movement',
  table: TABLE,
  column: 'status',
  transitions: {
    apply: { from: ['draft'], to: 'applied' },
    cancel: { from: ['draft'], to: 'cancelled' },
    fail: { from: ['draft'], to: 'failed' },
  },
});

export interface MovementEntry {
  readonly organizationId: string;
  readonly actorId: string;
  readonly assetId: string;
  readonly op: MovementOpValue;
  readonly status: 'draft' | 'applied';
  readonly fromObjectId: string | null;
  readonly toObjectId: string | null;
  readonly reason?: string | null;
  readonly maintenanceId?: string | null;
}

/** Writes one journal entry and returns its id. */
export async function recordMovement(em: EntityManager, entry: MovementEntry): Promise<string> {
  const movement = em.create(AssetMovementEntity, {
    organizationId: entry.organizationId,
    assetId: entry.assetId,
    op: entry.op,
    status: entry.status,
    fromObjectId: entry.fromObjectId,
    toObjectId: entry.toObjectId,
    actorId: entry.actorId,
    reason: entry.reason ?? null,
    maintenanceId: entry.maintenanceId ?? null,
  });
  await em.flush();
  return movement.id;
}

/** Applies or cancels the draft entry of a scheduled maintenance (when it starts or is called off). */
export async function settleMaintenanceDraft(em: EntityManager, maintenanceId: string, outcome: 'apply' | 'cancel'): Promise<void> {
  const drafts = await em.find(AssetMovementEntity, { maintenanceId, status: 'draft' }, { fields: ['id'] });
  for (const draft of drafts) {
    await transition(em, movementMachine, outcome, draft.id, outcome === 'apply' ? { setSql: { occurred_at: 'clock_timestamp()' } } : {});
  }
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
