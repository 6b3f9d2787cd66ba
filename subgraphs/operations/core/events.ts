import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEventEntity } from './outbox-event.entity.js';

/**
 * The transactional outbox: an event is written in the transaction of the change it
 * reports, with a sequence number; a trigger wakes readers with `NOTIFY operations_events`
 * (subscriptions, webhooks and notifications read from here).
 */
export async function publishEvent(
  em: EntityManager,
  event: { readonly type: string; readonly organizationId: string | null; readonly payload: Record<string, unknown> },
): Promise<string> {
  const outbox = em.create(OutboxEventEntity, { type: event.type, organizationId: event.organizationId, payload: event.payload });
  await em.flush();
  return outbox.id;
}
