import type { EntityManager } from '@mikro-orm/postgresql';
import { FuelSupplyRequest, type FuelSupplyData, type FuelSupplyRequestData } from '../../../contracts/operations/fuel/types.js';
import type { BodyOf, ContractInput } from '../../../contracts/operation.js';
import {
  scmApproveFuelSupplyRequest,
  type scmCreateFuelSupplyRequest,
  type scmLinkFuelSupply,
  type scmListFuelSupplyRequests,
  type scmUpdateFuelSupplyRequest,
} from '../../../contracts/operations/fuel/supply-requests.contract.js';
import { publishEvent } from '../core/events.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { defineStateMachine, transition, type Change } from '../core/state-machine.js';
import type { NotificationsService } from '../iam/notifications.service.js';
import { OperationsError } from '../operations.errors.js';
import { FuelError } from './fuel.errors.js';
import { FuelSupplyEntity } from './fuel-ledger.entity.js';
import { FuelSupplyRequestEntity } from './fuel-supply-request.entity.js';
import { SUPPLY_TABLE, toSupply } from './supply.service.js';

const TABLE = '"operations"."fuel_supply_request"';
const toRequest = recordMapper<FuelSupplyRequestData>(FuelSupplyRequest);
export const SUPPLY_REQUEST_SUBMITTED_EVENT = 'scm.fuel.supply-request.submitted';
/** Who approves fuel supply requests: the roles the submitted event is addressed to. */
export const FUEL_APPROVER_ROLES = ['CEO', 'Engineer'] as const;

type RequestState = 'draft' | 'submitted' | 'approved' | 'rejected' | 'fulfilled';
type RequestTransition = 'edit' | 'submit' | 'approve' | 'reject' | 'return' | 'fulfil';

export const supplyRequestMachine = defineStateMachine<RequestState, RequestTransition>({
  entity: 'Fuel supply request',
  table: TABLE,
  column: 'status',
  transitions: {
    /** Editing is a change within draft. */
    edit: { from: ['draft'], to: 'draft' },
    submit: { from: ['draft'], to: 'submitted' },
    approve: { from: ['submitted'], to: 'approved' },
    reject: { from: ['submitted'], to: 'rejected' },
    return: { from: ['submitted'], to: 'draft' },
    fulfil: { from: ['approved'], to: 'fulfilled' },
  },
});

export type SupplyRequestInput = ContractInput<typeof scmCreateFuelSupplyRequest>;

interface SupplyRow {
  readonly id: string;
  readonly kind: string;
  readonly tank_id: string;
  readonly supply_request_id: string | null;
  readonly reversed_by_id: string | null;
  readonly linked: boolean;
}

/**
 * Fuel supply requests through their states; submitting publishes an event through the
 * outbox and notifies the approvers (in the app and by mail).
 */
export class SupplyRequestService {
  constructor(private readonly notifications?: NotificationsService) {}

  async list(em: EntityManager, input: ContractInput<typeof scmListFuelSupplyRequests>) {
    const equals = { tank_id: input.tankId, status: input.status };
    return cursorList(em, { table: TABLE, equals, orderBy: 'created_at', direction: 'desc' }, input, toRequest);
  }

  /** The request with the supplies recorded for it or linked to it, and their reversals. */
  async get(em: EntityManager, id: string): Promise<FuelSupplyRequestData & { supplies: FuelSupplyData[] }> {
    const request = await em.findOne(FuelSupplyRequestEntity, id);
    if (!request) throw OperationsError.notFound('Fuel supply request');
    const fulfilled = request.fulfilledSupplyId ?? null;
    const supplies = await em.find(
      FuelSupplyEntity,
      { $or: [{ supplyRequestId: id }, ...(fulfilled ? [{ id: fulfilled }, { reversalOfId: fulfilled }] : [])] },
      { orderBy: { occurredAt: 'asc', id: 'asc' } },
    );
    return { ...toRequest(request), supplies: supplies.map(toSupply) };
  }

  async create(em: EntityManager, caller: Principal, input: SupplyRequestInput): Promise<FuelSupplyRequestData> {
    // raw SQL: the request takes its tenant and object from the tank, in the insert that finds the tank.
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${TABLE} ("organization_id", "tank_id", "object_id", "requested_volume_liters", "desired_delivery_date",
         "justification", "initiator_id")
       select t."organization_id", t."id", t."object_id", ?::numeric, ?::date, ?, ? from "operations"."fuel_tank" t where t."id" = ?
       returning *`,
      [input.requestedVolumeLiters, input.desiredDeliveryDate, input.justification, caller.userId, input.tankId],
    );
    if (!row) throw OperationsError.notFound('Fuel tank');
    return toRequest(row);
  }

  async update(em: EntityManager, id: string, patch: BodyOf<typeof scmUpdateFuelSupplyRequest>): Promise<FuelSupplyRequestData> {
    const set = Object.fromEntries(
      [
        ['requested_volume_liters', patch.requestedVolumeLiters],
        ['desired_delivery_date', patch.desiredDeliveryDate],
        ['justification', patch.justification],
      ].filter(([, value]) => value !== undefined),
    );
    return this.move(em, 'edit', id, { set });
  }

  async submit(em: EntityManager, id: string): Promise<FuelSupplyRequestData> {
    const request = await this.move(em, 'submit', id, { setSql: { submitted_at: 'now()' } });
    await publishEvent(em, {
      type: SUPPLY_REQUEST_SUBMITTED_EVENT,
      organizationId: request.organizationId,
      payload: {
        supplyRequestId: request.id,
        tankId: request.tankId,
        objectId: request.objectId,
        requestedVolumeLiters: request.requestedVolumeLiters,
        desiredDeliveryDate: request.desiredDeliveryDate,
        initiatorId: request.initiatorId,
        approverRoles: FUEL_APPROVER_ROLES,
      },
    });
    await this.notifications?.notifyPermitted(em, request.organizationId, scmApproveFuelSupplyRequest.name, {
      type: SUPPLY_REQUEST_SUBMITTED_EVENT,
      title: 'A fuel supply request awaits your approval',
      body:
        `A request for ${request.requestedVolumeLiters} l of fuel, to be delivered by ${request.desiredDeliveryDate}, was submitted ` +
        `and awaits approval (request ${request.id}).\n\nJustification: ${request.justification}\n`,
      data: { supplyRequestId: request.id, tankId: request.tankId, objectId: request.objectId },
    });
    return request;
  }

  approve(em: EntityManager, caller: Principal, id: string, comment?: string) {
    return this.move(em, 'approve', id, {
      set: { approved_by_id: caller.userId, approval_comment: comment ?? null },
      setSql: { approved_at: 'now()' },
    });
  }

  reject(em: EntityManager, caller: Principal, id: string, reason: string) {
    return this.move(em, 'reject', id, { set: { rejected_by_id: caller.userId, reject_reason: reason }, setSql: { rejected_at: 'now()' } });
  }

  returnForRework(em: EntityManager, id: string, comment: string) {
    return this.move(em, 'return', id, { set: { last_return_comment: comment } });
  }

  /**
   * Closes an approved request with the receipt that fulfils it: a receipt into the
   * request's tank, not reversed, recorded for no other request, linked to no other.
   */
  async linkSupply(em: EntityManager, id: string, input: BodyOf<typeof scmLinkFuelSupply>) {
    const request = await em.findOne(FuelSupplyRequestEntity, id, { fields: ['tankId'] });
    if (!request) throw OperationsError.notFound('Fuel supply request');
    // raw SQL: locking (the supply `for update`) with whether a request already links it.
    const [supply] = await em.execute<SupplyRow[]>(
      `select s.*, exists (select 1 from ${TABLE} r where r."fulfilled_supply_id" = s."id") as "linked"
       from ${SUPPLY_TABLE} s where s."id" = ? for update`,
      [input.supplyId],
    );
    if (!supply) throw OperationsError.notFound('Fuel supply');
    if (supply.kind !== 'receipt') throw FuelError.mismatch('supplyId', 'a reversal cannot fulfil a request');
    if (supply.reversed_by_id) throw FuelError.alreadyReversed('supply');
    if (supply.tank_id !== request.tankId) throw FuelError.mismatch('supplyId', 'the supply went into another tank');
    if (supply.supply_request_id && supply.supply_request_id !== id) {
      throw FuelError.mismatch('supplyId', 'the supply was recorded for another request');
    }
    if (supply.linked) throw FuelError.alreadyLinked();
    const quantity: Change =
      input.fulfilledQuantityLiters === undefined
        ? {
            set: { fulfilled_supply_id: input.supplyId },
            setSql: { fulfilled_at: 'now()', fulfilled_quantity_liters: '"requested_volume_liters"' },
          }
        : {
            set: { fulfilled_supply_id: input.supplyId, fulfilled_quantity_liters: input.fulfilledQuantityLiters },
            setSql: { fulfilled_at: 'now()' },
          };
    try {
      return await this.move(em, 'fulfil', id, quantity);
    } catch (error) {
      // Another request linked the same supply after this one looked (the unique index decides).
      if ((error as { code?: string }).code === '23505') throw FuelError.alreadyLinked();
      throw error;
    }
  }

  private async move(em: EntityManager, name: RequestTransition, id: string, change: Change) {
    return toRequest(await transition(em, supplyRequestMachine, name, id, change));
  }
}
