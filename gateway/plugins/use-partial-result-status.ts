import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../context.js';

/**
 * A field error's `extensions.http.status` becomes the HTTP status only when the
 * operation produced no data at all; a partial result is still a 200.
 */
export function usePartialResultStatus(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const { data } = response.body.singleResult;
          if (data && Object.values(data).some((value) => value !== null)) response.http.status = 200;
        },
      };
    },
  };
}
