import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { scmIssueTmcTransfer, scmListTmcTransfers } from '../../../../contracts/operations/scm/tmc-movements.contract.js';
import { TmcTransfer } from '../../../../contracts/operations/scm/stock-types.js';
import { cursorList } from '../../core/cursor-list.js';
import type { Principal } from '../../core/principal.js';
import { recordMapper } from '../../core/rows.js';
import { transition } from '../../core/state-machine.js';
import { transferMachine } from '../machines.js';
import { ScmError } from '../scm.errors.js';
import { insertLines, linesOf } from './document-lines.js';
import type { StockLedger } from './stock-ledger.js';
import { TmcTransferEntity } from './tmc-transfer.entity.js';
import type { WarehouseService } from './warehouse.service.js';

type TransferData = z.output<typeof TmcTransfer>;

const TABLE = '"operations"."tmc_transfer"';
const LINES = { table: 'tmc_transfer_line', parent: 'tmc_transfer_id' } as const;
const toTransfer = recordMapper<TransferData>(TmcTransfer);
const toLine = recordMapper<TransferData['lines'][number]>(TmcTransfer.shape.lines.element);

export type TransferInput = ContractInput<typeof scmIssueTmcTransfer>;

/** Transfers: issued (out of the source, in transit), then confirmed (into the target). */
export class TransferService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly ledger: StockLedger,
  ) {}

  async issue(em: EntityManager, caller: Principal, input: TransferInput): Promise<TransferData> {
    if (input.fromWarehouseId === input.toWarehouseId) throw ScmError.invalid('toWarehouseId', 'must differ from fromWarehouseId');
    const from = await this.warehouses.ref(em, input.fromWarehouseId, 'fromWarehouseId');
    const to = await this.warehouses.ref(em, input.toWarehouseId, 'toWarehouseId');
    await this.ledger.lockLines(em, input.lines, 'share');
    const transfer = em.create(TmcTransferEntity, {
      fromWarehouseId: from.id,
      toWarehouseId: to.id,
      fromObjectId: from.objectId,
      toObjectId: to.objectId,
      transferDate: input.transferDate,
      documentNumber: input.documentNumber,
      issuedById: caller.userId,
    });
    await em.flush();
    const id = transfer.id;
    await insertLines(em, LINES, id, input.lines);
    await this.ledger.takeLines(em, input.lines, {
      warehouse: from,
      kind: 'transfer_out',
      documentType: 'transfer',
      documentId: id,
      actorId: caller.userId,
    });
    return this.get(em, id);
  }

  async confirm(em: EntityManager, caller: Principal, id: string, note: string | undefined): Promise<TransferData> {
    const row = await transition(em, transferMachine, 'confirm', id, {
      set: { confirmed_by_id: caller.userId, note: note ?? null },
      setSql: { confirmed_at: 'now()' },
    });
    const to = { id: String(row.to_warehouse_id), objectId: String(row.to_object_id) };
    const lines = (await linesOf(em, LINES, [id])).get(id) ?? [];
    await this.ledger.addLines(
      em,
      lines.map((line) => ({ itemId: String(line.item_id), quantity: String(line.quantity) })),
      { warehouse: to, kind: 'transfer_in', documentType: 'transfer', documentId: id, actorId: caller.userId },
    );
    return this.withLines(em, [row]).then(([transfer]) => transfer!);
  }

  async get(em: EntityManager, id: string): Promise<TransferData> {
    // Read again: state changes write the row in SQL.
    const row = await em.findOne(TmcTransferEntity, id, { refresh: true });
    if (!row) throw ScmError.notFound('TMC transfer');
    const [transfer] = await this.withLines(em, [row]);
    return transfer!;
  }

  async list(em: EntityManager, input: ContractInput<typeof scmListTmcTransfers>) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (input.status) {
      where.push(`"status" = ?`);
      params.push(input.status);
    }
    if (input.warehouseId) {
      where.push(`("from_warehouse_id" = ? or "to_warehouse_id" = ?)`);
      params.push(input.warehouseId, input.warehouseId);
    }
    const page = await cursorList(em, { table: TABLE, where, params, orderBy: 'created_at', direction: 'desc' }, input, (row) => row);
    return { items: await this.withLines(em, page.items), nextCursor: page.nextCursor };
  }

  private async withLines(
    em: EntityManager,
    rows: ReadonlyArray<Record<string, unknown> | { readonly id: unknown }>,
  ): Promise<TransferData[]> {
    const lines = await linesOf(
      em,
      LINES,
      rows.map((row) => String(row.id)),
    );
    return rows.map((row) => ({ ...toTransfer(row), lines: (lines.get(String(row.id)) ?? []).map(toLine) }));
  }
}
