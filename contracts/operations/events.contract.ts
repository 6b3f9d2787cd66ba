import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation, type OperationContract } from '../operation.js';
import { operationsAsyncApi } from './events/asyncapi.js';

/**
 * The description of the operations service's events (AsyncAPI 3.0), built from their
 * declarations and, for events that follow an operation, that operation's output; the
 * service's contract list is handed in, so this file does not import the list it is part of.
 */
export function asyncApiOperation(contracts: () => readonly OperationContract[]) {
  let document: Record<string, unknown> | undefined;
  return defineOperation({
    service: 'operations',
    name: 'operationsAsyncApi',
    kind: 'edge',
    summary: 'The event types and their payloads (AsyncAPI 3.0)',
    description:
      'Every domain event the service publishes, with the schema of its payload: the names webhook subscriptions take ' +
      '(`eventTypes`: an exact name, a prefix wildcard such as `eam.asset.*`, or `*`).',
    tags: ['webhooks'],
    access: publicAccess(),
    output: z.record(z.string(), z.unknown()),
    rest: {
      method: 'GET',
      path: '/api/v1/asyncapi.json',
      respond: () => ({ type: 'application/json', body: (document ??= operationsAsyncApi(contracts())) }),
    },
  });
}
