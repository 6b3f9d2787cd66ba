import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContract } from '../../../contracts/operation.js';
import { OPERATIONS_EVENTS } from '../../../contracts/operations/events/catalog.js';
import { OPERATIONS_CONTRACTS } from '../../../contracts/operations/index.js';
import { publishEvent } from './events.js';
import type { Principal } from './principal.js';

/**
 * The events the pipeline publishes after an operation succeeds, by operation name, from
 * their declarations (`contracts/operations/events/catalog.ts`). A declaration naming an
 * operation that is not a mutation of this service stops the process at start-up.
 */
function byOperation(): ReadonlyMap<string, readonly string[]> {
  const mutations = new Set(OPERATIONS_CONTRACTS.filter((contract) => contract.kind === 'mutation').map((contract) => contract.name));
  const events = new Map<string, string[]>();
  for (const event of OPERATIONS_EVENTS) {
    if (!event.operation) continue;
    if (!mutations.has(event.operation))
      throw new Error(`event ${event.name}: ${event.operation} is not a mutation of the operations service`);
    events.set(event.operation, [...(events.get(event.operation) ?? []), event.name]);
  }
  return events;
}

let published: ReadonlyMap<string, readonly string[]> | undefined;

/** The event types published after a successful call of `operation`. */
export function eventsOf(operation: string): readonly string[] {
  published ??= byOperation();
  return published.get(operation) ?? [];
}

/**
 * Writes the events an operation declares to the outbox, in the call's transaction, with
 * its result as the payload: they commit with the change or not at all. An event belongs
 * to the caller's organization, or — for the platform's super-admin — to the organization
 * the result names.
 */
export async function publishOperationEvents(
  tx: EntityManager,
  contract: OperationContract,
  caller: Principal | undefined,
  result: unknown,
): Promise<void> {
  const types = eventsOf(contract.name);
  if (types.length === 0 || !result || typeof result !== 'object') return;
  const payload = result as Record<string, unknown>;
  const named = typeof payload.organizationId === 'string' ? payload.organizationId : null;
  const organizationId = caller?.organizationId ?? named;
  for (const type of types) await publishEvent(tx, { type, organizationId, payload });
}
