import type { EntityManager } from '@mikro-orm/postgresql';
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

export interface HoursEntryRow {
  readonly id: string;
  readonly asset_id: string;
  readonly hours: string;
  readonly reversed_by_id: string | null;
  readonly [column: string]: unknown;
}

export class MachineHoursService {
  /** The live (not reversed) run of a source, if any. */
  async liveRun(em: EntityManager, sourceId: string): Promise<HoursEntryRow | undefined> {
    const [row] = await em.execute<HoursEntryRow[]>(
      `select * from ${ENTRIES} where "source_id" = ? and "kind" = 'run' and "reversed_by_id" is null`,
      [sourceId],
    );
    return row;
  }

  /** Adds a run to the asset's hours and meter; a source with a live run is left as it is. Returns the run's id. */
  async record(em: EntityManager, run: MachineRun): Promise<string> {
    const asset = await lockAsset(em, run.assetId);
    const live = await this.liveRun(em, run.sourceId);
    if (live) return live.id;
    const [entry] = await em.execute<Array<{ id: string }>>(
      `insert into ${ENTRIES} ("organization_id", "asset_id", "object_id", "kind", "hours", "meter_start", "meter_end", "source_type",
         "source_id", "saga_id", "actor_id")
       values (?, ?, ?, 'run', ?::numeric, ?::numeric, ?::numeric, ?, ?, ?, ?) returning "id"`,
      [
        asset.organization_id,
        asset.id,
        asset.current_object_id,
        String(run.hours),
        run.meterStart === null ? null : String(run.meterStart),
        run.meterEnd === null ? null : String(run.meterEnd),
        run.sourceType,
        run.sourceId,
        run.sagaId ?? null,
        run.actorId ?? null,
      ],
    );
    await em.execute(
      `update ${ASSET_TABLE} set "machine_hours" = "machine_hours" + ?::numeric,
         "meter_reading" = case when ?::numeric is null then "meter_reading" else greatest(coalesce("meter_reading", ?::numeric), ?::numeric) end,
         "updated_at" = now() where "id" = ?`,
      [String(run.hours), ...Array(3).fill(run.meterEnd === null ? null : String(run.meterEnd)), asset.id],
    );
    return entry!.id;
  }

  /** Takes a run back with a counter-entry (once: a reversed run is left as it is). */
  async reverse(em: EntityManager, entryId: string, options: { sagaId?: string | null; actorId?: string | null } = {}): Promise<void> {
    const [original] = await em.execute<HoursEntryRow[]>(`select * from ${ENTRIES} where "id" = ? and "kind" = 'run'`, [entryId]);
    if (!original || original.reversed_by_id) return;
    await lockAsset(em, original.asset_id);
    // Read again under the asset's lock: a concurrent reversal of the same run has committed or not.
    const [current] = await em.execute<HoursEntryRow[]>(`select * from ${ENTRIES} where "id" = ? for update`, [entryId]);
    if (!current || current.reversed_by_id) return;
    const [reversal] = await em.execute<Array<{ id: string }>>(
      `insert into ${ENTRIES} ("organization_id", "asset_id", "object_id", "kind", "hours", "meter_start", "meter_end", "source_type",
         "source_id", "saga_id", "actor_id", "reversal_of_id")
       select "organization_id", "asset_id", "object_id", 'reversal', "hours", "meter_start", "meter_end", "source_type", "source_id", ?, ?, "id"
       from ${ENTRIES} where "id" = ? returning "id"`,
      [options.sagaId ?? null, options.actorId ?? null, entryId],
    );
    await em.execute(`update ${ENTRIES} set "reversed_by_id" = ?, "updated_at" = now() where "id" = ?`, [reversal!.id, entryId]);
    await em.execute(
      `update ${ASSET_TABLE} set "machine_hours" = "machine_hours" - ?::numeric,
         "meter_reading" = (select max("meter_end") from ${ENTRIES} where "asset_id" = ? and "kind" = 'run' and "reversed_by_id" is null),
         "updated_at" = now() where "id" = ?`,
      [current.hours, current.asset_id, current.asset_id],
    );
  }
}
