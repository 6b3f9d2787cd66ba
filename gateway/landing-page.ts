import type { ApolloServerPlugin } from '@apollo/server';
import { VERSION } from '../contracts/version.js';
import type { GatewayContext } from './context.js';

/** What a browser gets for `GET /graphql`: one self-contained page that loads nothing from anywhere. */
export const GRAPHQL_LANDING_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Qantara GraphQL</title></head>
<body>
<h1>Qantara GraphQL</h1>
<p>Version <span id="version">${VERSION}</span></p>
<p>Send operations to this address with <code>POST</code> and <code>content-type: application/json</code>:
<code>{"query": "…", "variables": {…}, "operationName": "…"}</code>.</p>
<pre>curl -s -H 'content-type: application/json' -d '{"query":"{ libraryHealth { status } }"}' &lt;this address&gt;</pre>
</body>
</html>
`;

/** Replaces Apollo's default landing page, which loads its scripts and fonts from CDNs. */
export function useLocalLandingPage(): ApolloServerPlugin<GatewayContext> {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html: GRAPHQL_LANDING_PAGE };
        },
      };
    },
  };
}
