import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { scmCreateTmcRequest, scmListTmcRequests } from '../../../../contracts/operations/scm/tmc-requests.contract.js';
import { TmcRequest } from '../../../../contracts/operations/scm/stock-types.js';
import { cursorList } from '../../core/cursor-list.js';
import type { Principal } from '../../core/principal.js';
import { recordMapper } from '../../core/rows.js';
import { transition, type Change } from '../../core/state-machine.js';
import { requestMachine } from '../machines.js';
import { arrayLiteral } from '../pg-values.js';
import { ScmError } from '../scm.errors.js';
import { insertLines, linesOf } from './document-lines.js';
import type { StockLedger } from './stock-ledger.js';
import { TmcReceiptEntity } from './tmc-receipt.entity.js';
import { TmcRequestEntity } from './tmc-request.entity.js';
import type { WarehouseService } from './warehouse.service.js';

type RequestData = z.output<typeof TmcRequest>;
type Move = keyof typeof requestMachine.transitions;

const TABLE = '"operations"."tmc_request"';
const LINES = { table: 'tmc_request_line', parent: 'tmc_request_id' } as const;
const toRequest = recordMapper<RequestData>(TmcRequest);
const toLine = recordMapper<RequestData['lines'][number]>(TmcRequest.shape.lines.element);

/** TMC requests and their moves; each move is one conditional update of the state machine. */
export class RequestService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly ledger: StockLedger,
  ) {}

  async create(em: EntityManager, caller: Principal, input: ContractInput<typeof scmCreateTmcRequest>): Promise<RequestData> {
    const warehouse = await this.warehouses.ref(em, input.warehouseId, 'warehouseId');
    await this.ledger.lockLines(em, input.lines, 'share', { active: true });
    const request = em.create(TmcRequestEntity, {
      warehouseId: warehouse.id,
      objectId: warehouse.objectId,
      createdById: caller.userId,
      justification: input.justification,
    });
    await em.flush();
    await insertLines(em, LINES, request.id, input.lines);
    return this.get(em, request.id);
  }

  async get(em: EntityManager, id: string): Promise<RequestData> {
    // Read again: state changes write the row in SQL.
    const request = await em.findOne(TmcRequestEntity, id, { refresh: true });
    if (!request) throw ScmError.notFound('TMC request');
    return (await this.withLines(em, [request]))[0]!;
  }

  async list(em: EntityManager, input: ContractInput<typeof scmListTmcRequests>) {
    const equals = { status: input.status, warehouse_id: input.warehouseId };
    const page = await cursorList(em, { table: TABLE, equals, orderBy: 'created_at', direction: 'desc' }, input, (row) => row);
    return { items: await this.withLines(em, page.items), nextCursor: page.nextCursor };
  }

  /** Submit, approve, reject, return or start, with what each move records. */
  async move(em: EntityManager, caller: Principal, id: string, name: Exclude<Move, 'close'>, text?: string): Promise<RequestData> {
    const changes: Record<Exclude<Move, 'close'>, Change> = {
      submit: { setSql: { submitted_at: 'now()' } },
      approve: { set: { approved_by_id: caller.userId }, setSql: { approved_at: 'now()' } },
      reject: { set: { rejected_by_id: caller.userId, reject_reason: text }, setSql: { rejected_at: 'now()' } },
      return: { set: { returned_by_id: caller.userId, return_comment: text } },
      start: { setSql: { started_at: 'now()' } },
    };
    const row = await transition(em, requestMachine, name, id, changes[name]);
    return (await this.withLines(em, [row]))[0]!;
  }

  /** Fulfilled with the receipts that answered it: each must be a receipt into the request's warehouse. */
  async close(em: EntityManager, id: string, linkedInboundIds: readonly string[]): Promise<RequestData> {
    const ids = [...new Set(linkedInboundIds)];
    const row = await transition(em, requestMachine, 'close', id, {
      set: { linked_inbound_ids: arrayLiteral(ids) },
      setSql: { fulfilled_at: 'now()' },
    });
    const found = await em.find(TmcReceiptEntity, { id: { $in: ids }, warehouseId: String(row.warehouse_id) }, { fields: ['id'] });
    const known = new Set(found.map((receipt) => receipt.id));
    const invalid = ids.filter((receipt) => !known.has(receipt));
    if (invalid.length > 0) throw ScmError.linkedReceiptInvalid(invalid);
    return (await this.withLines(em, [row]))[0]!;
  }

  private async withLines(
    em: EntityManager,
    rows: ReadonlyArray<Record<string, unknown> | { readonly id: unknown }>,
  ): Promise<RequestData[]> {
    const lines = await linesOf(
      em,
      LINES,
      rows.map((row) => String(row.id)),
    );
    return rows.map((row) => ({ ...toRequest(row), lines: (lines.get(String(row.id)) ?? []).map(toLine) }));
  }
}
