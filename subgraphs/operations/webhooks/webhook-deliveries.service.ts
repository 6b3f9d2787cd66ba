import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { webhooksListDeliveries } from '../../../contracts/operations/webhooks.contract.js';
import { WebhookDelivery, type WebhookDeliveryData } from '../../../contracts/operations/webhooks-types.js';
import { entityCursorList } from '../core/cursor-list.js';
import { recordMapper } from '../core/rows.js';
import { defineStateMachine, transition } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { WEBHOOK_WAKE_CHANNEL } from './webhook-dispatch-database.js';
import { WebhookDeliveryEntity, type WebhookDelivery as DeliveryRecord } from './webhook-delivery.entity.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

export const DELIVERY_TABLE = `"operations"."webhook_delivery"`;

/**
 * A delivery is `pending` from fan-out until a 2xx answer (`delivered`) or its last attempt
 * (`failed`); only a failed one can be re-queued. The dispatcher settles attempts with the
 * same conditional update (docs/adr/0015-webhooks.md).
 */
export const deliveryMachine = defineStateMachine({
  entity: 'WebhookDelivery',
  table: DELIVERY_TABLE,
  column: 'status',
  transitions: {
    deliver: { from: ['pending'], to: 'delivered' },
    fail: { from: ['pending'], to: 'failed' },
    retry: { from: ['failed'], to: 'pending' },
  },
});

const toDelivery = recordMapper<WebhookDeliveryData>(WebhookDelivery);
const toDeliveryRecord = recordMapper<WebhookDeliveryData>(WebhookDelivery) as (delivery: DeliveryRecord) => WebhookDeliveryData;

/** The delivery log of an endpoint of the caller's organization (row-level security hides the rest), newest event first. */
export class WebhookDeliveriesService {
  async list(em: EntityManager, input: ContractInput<typeof webhooksListDeliveries>) {
    await this.endpointExists(em, input.id);
    return entityCursorList(
      em,
      {
        entity: WebhookDeliveryEntity,
        owner: { endpointId: input.id },
        where: input.status ? { status: input.status } : {},
        orderBy: 'eventSequence',
        direction: 'desc',
      },
      input,
      toDeliveryRecord,
    );
  }

  /** One more attempt, at once; the dispatcher is woken when the transaction commits. */
  async retry(em: EntityManager, endpointId: string, deliveryId: string): Promise<WebhookDeliveryData> {
    await this.endpointExists(em, endpointId);
    const owned = await em.count(WebhookDeliveryEntity, { id: deliveryId, endpointId });
    if (owned === 0) throw OperationsError.notFound(deliveryMachine.entity);
    const row = await transition(em, deliveryMachine, 'retry', deliveryId, {
      setSql: { max_attempts: '"attempts" + 1', next_attempt_at: 'now()' },
    });
    // raw SQL: NOTIFY has no ORM form; it is delivered when the transaction commits.
    await em.execute(`select pg_notify(?, 'retry')`, [WEBHOOK_WAKE_CHANNEL]);
    return toDelivery(row);
  }

  private async endpointExists(em: EntityManager, id: string): Promise<void> {
    const endpoints = await em.count(WebhookEndpointEntity, { id });
    if (endpoints === 0) throw OperationsError.notFound('WebhookEndpoint');
  }
}
