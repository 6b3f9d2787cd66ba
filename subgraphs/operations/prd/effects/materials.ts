import type { TmcUsageService } from '../../scm/stock/tmc-usage.service.js';
import type { ShiftReportEffect } from './effect.js';

/** Materials: each material usage written off its warehouse's stock (a movement documented by the entry), or given back. */

const ENTRIES = '"operations"."shift_material_usage"';
const MOVEMENTS = '"operations"."tmc_movement"';
/** A write-off of the entry that is in effect (not reversed). */
const LIVE = `t."document_id" = m."id" and t."kind" = 'write_off' and t."document_type" = 'usage'
  and not exists (select 1 from ${MOVEMENTS} r where r."reverses_id" = t."id")`;

export function materialsEffect(usage: TmcUsageService): ShiftReportEffect {
  return {
    step: 'materials',
    async apply(em, { report, actorId }) {
      // Items in id order, as every stock document takes them: no deadlocks with concurrent approvals.
      // raw SQL: the entries not yet written off (an anti-join on the stock ledger) with their write-off counts, in item order.
      const entries = await em.execute<Array<{ id: string; warehouse_id: string; tmc_item_id: string; quantity: string; written: string }>>(
        `select m."id", m."warehouse_id", m."tmc_item_id", m."quantity"::text as "quantity",
           (select count(*) from ${MOVEMENTS} t where t."document_id" = m."id" and t."kind" = 'write_off')::text as "written"
         from ${ENTRIES} m where m."shift_report_id" = ? and not exists (select 1 from ${MOVEMENTS} t where ${LIVE})
         order by m."tmc_item_id", m."warehouse_id", m."id"`,
        [report.id],
      );
      const movements: string[] = [];
      for (const entry of entries) {
        // A key per write-off of the entry: one taken back earlier (a compensation) does not hide the next.
        const written = await usage.writeOff(em, {
          warehouseId: entry.warehouse_id,
          itemId: entry.tmc_item_id,
          quantity: entry.quantity,
          sourceKey: `prd.material:${entry.id}:${Number(entry.written) + 1}`,
          documentId: entry.id,
          actorId,
        });
        movements.push(written.movementId);
      }
      return { movements };
    },
    async undo(em, { report, actorId }) {
      // raw SQL: the live write-offs of the report's entries, a join in item order.
      const live = await em.execute<Array<{ id: string }>>(
        `select t."id" from ${MOVEMENTS} t join ${ENTRIES} m on ${LIVE} where m."shift_report_id" = ? order by t."item_id", t."id"`,
        [report.id],
      );
      for (const movement of live) await usage.reverse(em, movement.id, actorId);
      return { reversed: live.map((movement) => movement.id) };
    },
  };
}
