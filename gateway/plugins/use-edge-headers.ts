import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../context.js';
import { edgeHeaders } from '../edge-headers.js';

/** Writes the headers subgraphs asked for (rate limits, quotas) on `/graphql` responses. */
export function useEdgeHeaders(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          for (const [name, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions ?? {}))) response.http.headers.set(name, value);
        },
      };
    },
  };
}
