import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../context.js';
import { edgeHeaders } from '../edge-headers.js';

/** Writes the headers subgraphs asked for (rate limits, quotas, `Retry-After`) on `/graphql` responses. */
export function useEdgeHeaders(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          for (const [name, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions ?? {})))
            response.http.headers.set(name, value);
          // A refused call (429) says when to come back, on /graphql as on REST.
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const retryAfter = errors?.map((error) => error.extensions?.retryAfter).find((value) => typeof value === 'number');
          if (typeof retryAfter === 'number') response.http.headers.set('retry-after', String(retryAfter));
        },
      };
    },
  };
}
