import { createClient } from './vendor/graphql-ws/client.js';

/**
 * A case's events as they happen: the `threadUpdated` subscription over graphql-ws on
 * `/graphql`, the signed-in user's access token sent at connect.
 */

const THREAD_UPDATED = `subscription ($threadId: String!, $after: Int) {
  threadUpdated(threadId: $threadId, after: $after) { sequence type }
}`;

export function liveUpdates(session) {
  const client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: true,
    retryAttempts: 5,
    connectionParams: async () => ({ authorization: `Bearer ${await session.accessToken()}` }),
  });
  return {
    /** Calls `onEvent` for each event of the case after `after`; returns the function that stops watching. */
    watch(threadId, after, onEvent, onError) {
      return client.subscribe(
        { query: THREAD_UPDATED, variables: { threadId, after } },
        {
          next: (result) => (result.errors?.length ? onError(new Error(result.errors[0].message)) : onEvent(result.data.threadUpdated)),
          error: (error) => onError(error instanceof Error ? error : new Error('The live connection closed.')),
          complete: () => undefined,
        },
      );
    },
  };
}
