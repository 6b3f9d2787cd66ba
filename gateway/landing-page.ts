import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from './context.js';
import { explorerPage } from './explorer/serve.js';

/** What a browser gets for `GET /graphql`: the GraphQL explorer, served from this process, instead of Apollo's CDN-loaded page. */
export function useLocalLandingPage(): ApolloServerPlugin<GatewayContext> {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html: async () => explorerPage() };
        },
      };
    },
  };
}
