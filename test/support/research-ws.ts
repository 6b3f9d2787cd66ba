import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestStack } from './stack.js';

/** graphql-ws clients of a test stack: the subscription endpoint is `/graphql` on the same port. */

export const wsUrl = (stack: Pick<TestStack, 'url'>) => `${stack.url.replace(/^http/, 'ws')}/graphql`;

export function wsClient(stack: Pick<TestStack, 'url'>, connectionParams: Record<string, unknown>): Client {
  return createClient({ url: wsUrl(stack), webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

/** How the server ends a raw connection that sent `connection_init` with `payload`: its ack, or its close code. */
export async function connectOutcome(stack: Pick<TestStack, 'url'>, payload: Record<string, unknown>): Promise<'ack' | number> {
  const socket = new WebSocket(wsUrl(stack), 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') {
        socket.close();
        resolve('ack');
      }
    });
    socket.on('close', (code) => resolve(code));
    socket.on('error', reject);
  });
}

/** Collects a subscription's events until `stop` says so (or it ends), then unsubscribes. */
export async function collect<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  stop: (events: T[]) => boolean,
  started?: () => Promise<void>,
): Promise<T[]> {
  const events: T[] = [];
  const iterator = client.iterate<T>({ query, variables });
  const failed = (errors: ReadonlyArray<{ message: string }>) => Object.assign(new Error(errors[0]?.message), { errors });
  const pending = (async () => {
    try {
      for await (const result of iterator) {
        if (result.errors?.length) throw failed(result.errors);
        events.push(result.data as T);
        if (stop(events)) break;
      }
    } catch (error) {
      // The protocol's `error` message (a refused operation) arrives as the list of errors itself.
      throw Array.isArray(error) ? failed(error) : error;
    }
  })();
  await started?.();
  await pending;
  return events;
}
