import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AssetHoursEntry, AssetHoursEntryEntity } from './asset-hours-entry.entity.js';
import { ASSET_TABLE, lockAsset } from './assets.js';

/**
 * An asset's machine hours and meter, changed only here (no route of its own: the shift-report
 * saga records runs and reverses them) inside the caller's tenant transaction. Every run is an
 * entry of an append-only ledger; a reversal is a counter-entry written once. The asset keeps the
 * sum of the hours of runs not reversed and the highest meter reading among them, recomputed from
 * the ledger when a run is reversed — so taking a run back restores both exactly, whatever ran
 * since. Changes lock the asset row, so concurrent runs of one asset apply one after the other.
 */

const ENTRIES = '"operations"."asset_hours_entry"';

export interface MachineRun {
  readonly assetId: string;
  /** Exact decimal (a number, or `numeric` text), at least 0. */
  readonly hours: number | string;
  readonly meterStart: number | string | null;
  readonly meterEnd: number | string | null;
  /** What the run comes from, e.g. `prd.shift-asset-usage` and the usage's id: one run per source is live at a time. */
  readonly sourceType: string;
  readonly sourceId: string;
  readonly sagaId?: string | null;
  readonly actorId?: string | null;
}

export class MachineHoursService {
  /** The live (not reversed) run of a source, if any. */
  async liveRun(em: EntityManager, sourceId: string): Promise<AssetHoursEntry | null> {
    return em.findOne(AssetHoursEntryEntity, { sourceId, kind: 'run', reversedById: null }, { refresh: true });
  }

  /** Adds a run to the asset's hours and meter; a source with a live run is left as it is. Returns the run's id. */
  async record(em: EntityManager, run: MachineRun): Promise<string> {
    const asset = await lockAsset(em, run.assetId);
    const live = await this.liveRun(em, run.sourceId);
    if (live) return live.id;
    const entry = em.create(AssetHoursEntryEntity, {
      organizationId: asset.organization_id,
      assetId: asset.id,
      objectId: asset.current_object_id,
      kind: 'run',
      hours: String(run.hours),
      meterStart: run.meterStart === null ? null : String(run.meterStart),
      meterEnd: run.meterEnd === null ? null : String(run.meterEnd),
      sourceType: run.sourceType,
      sourceId: run.sourceId,
      sagaId: run.sagaId ?? null,
      actorId: run.actorId ?? null,
    });
    await em.flush();
    // raw SQL: atomic change of the asset's totals (exact numeric arithmetic under the asset's lock).
    await em.execute(
      `update ${ASSET_TABLE} set "machine_hours" = "machine_hours" + ?::numeric,
         "meter_reading" = case when ?::numeric is null then "meter_reading" else greatest(coalesce("meter_reading", ?::numeric), ?::numeric) end,
         "updated_at" = now() where "id" = ?`,
      [String(run.hours), ...Array(3).fill(run.meterEnd === null ? null : String(run.meterEnd)), asset.id],
    );
    return entry.id;
  }

  /** Takes a run back with a counter-entry (once: a reversed run is left as it is). */
  async reverse(em: EntityManager, entryId: string, options: { sagaId?: string | null; actorId?: string | null } = {}): Promise<void> {
    const original = await em.findOne(AssetHoursEntryEntity, { id: entryId, kind: 'run' }, { refresh: true });
    if (!original || original.reversedById) return;
    await lockAsset(em, original.assetId);
    // Read again under the asset's lock: a concurrent reversal of the same run has committed or not.
    const current = await em.findOne(AssetHoursEntryEntity, entryId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!current || current.reversedById) return;
    const reversal = em.create(AssetHoursEntryEntity, {
      organizationId: current.organizationId,
      assetId: current.assetId,
      objectId: current.objectId,
      kind: 'reversal',
      hours: current.hours,
      meterStart: current.meterStart ?? null,
      meterEnd: current.meterEnd ?? null,
      sourceType: current.sourceType,
      sourceId: current.sourceId,
      sagaId: options.sagaId ?? null,
      actorId: options.actorId ?? null,
      reversalOfId: current.id,
    });
    await em.flush();
    current.reversedById = reversal.id;
    await em.flush();
    // raw SQL: atomic change of the asset's totals (exact numeric arithmetic under the asset's lock).
    await em.execute(
      `update ${ASSET_TABLE} set "machine_hours" = "machine_hours" - ?::numeric,
         "meter_reading" = (select max("meter_end") from ${ENTRIES} where "asset_id" = ? and "kind" = 'run' and "reversed_by_id" is null),
         "updated_at" = now() where "id" = ?`,
      [current.hours, current.assetId, current.assetId],
    );
  }
}
