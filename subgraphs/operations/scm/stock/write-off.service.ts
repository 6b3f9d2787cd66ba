import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { scmWriteOffTmc } from '../../../../contracts/operations/scm/tmc-movements.contract.js';
import type { Principal } from '../../core/principal.js';
import { ProductionObjectEntity } from '../../reference-books/reference-book.entity.js';
import { ScmError } from '../scm.errors.js';
import { insertLines } from './document-lines.js';
import type { StockLedger } from './stock-ledger.js';
import { type TmcWriteOff, TmcWriteOffEntity } from './tmc-write-off.entity.js';
import type { WarehouseService } from './warehouse.service.js';

export type WriteOffInput = ContractInput<typeof scmWriteOffTmc>;

const LINES = { table: 'tmc_write_off_line', parent: 'tmc_write_off_id' } as const;

/** Manual write-off acts: every line comes off its balance or the whole act is refused. */
export class WriteOffService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly ledger: StockLedger,
  ) {}

  async writeOff(em: EntityManager, caller: Principal, input: WriteOffInput) {
    const warehouse = await this.warehouses.ref(em, input.warehouseId, 'warehouseId');
    if ((await em.count(ProductionObjectEntity, { id: input.targetObjectId, deletedAt: null })) === 0)
      throw ScmError.notFound('Production object', 'targetObjectId');
    await this.ledger.lockLines(em, input.lines, 'share');
    const act = em.create(TmcWriteOffEntity, {
      warehouseId: warehouse.id,
      objectId: warehouse.objectId,
      assetId: input.assetId ?? null,
      targetObjectId: input.targetObjectId,
      reason: input.reason as TmcWriteOff['reason'],
      documentReference: input.documentReference ?? null,
      occurredAt: new Date(input.occurredAt),
      lineCount: input.lines.length,
      createdBy: caller.userId,
    });
    await em.flush();
    const id = act.id;
    await insertLines(em, LINES, id, input.lines, {
      price: `(select "weighted_avg_price" from "operations"."tmc_item" where "id" = (l."line" ->> 'itemId')::uuid)`,
    });
    await this.ledger.takeLines(em, input.lines, {
      warehouse,
      kind: 'write_off',
      documentType: 'write_off',
      documentId: id,
      actorId: caller.userId,
      occurredAt: input.occurredAt,
    });
    return { consumptionId: id, warehouseId: warehouse.id, lineCount: input.lines.length };
  }
}
