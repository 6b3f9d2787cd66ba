import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The transactional outbox: an event is written in the transaction of the change it
 * reports, with a sequence number; a trigger wakes readers with `NOTIFY operations_events`
 * (subscriptions, webhooks and notifications read from here).
 */
export async function publishEvent(
  em: EntityManager,
  event: { readonly type: string; readonly organizationId: string | null; readonly payload: Record<string, unknown> },
): Promise<string> {
  const [row] = await em.execute<Array<{ id: string }>>(
    `insert into "operations"."outbox_event" ("type", "organization_id", "payload") values (?, ?, ?::jsonb) returning "id"`,
    [event.type, event.organizationId, JSON.stringify(event.payload)],
  );
  return row!.id;
}
