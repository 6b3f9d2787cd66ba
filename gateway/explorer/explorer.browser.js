// The GraphQL explorer's page script, bundled by gateway/explorer/bundle.ts: GraphiQL on
// this address, queries and mutations over HTTP and subscriptions over graphql-ws, both
// sent with the headers of GraphiQL's headers editor (`Authorization`, `X-API-Key`).
import { getOperationAST, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { GraphiQL } from 'graphiql';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './explorer.browser.css';

// The page is served at the GraphQL address itself.
const endpoint = new URL(location.pathname, location.href);
const socketUrl = new URL(endpoint);
socketUrl.protocol = endpoint.protocol === 'https:' ? 'wss:' : 'ws:';

const DEFAULT_QUERY = `# Qantara's one graph: the library, research and operations services.
# Put a key or an access token in the headers below, for example
#   { "Authorization": "Bearer …" } or { "X-API-Key": "…" }
# Open the docs for every field; subscriptions run over graphql-ws.
{
  libraryPlans {
    name
  }
}
`;

function isSubscription(query, operationName) {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === 'subscription';
  } catch {
    return false;
  }
}

async function overHttp(params, headers) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(params),
  });
  return response.json();
}

/** One subscription on its own graphql-ws connection, authenticated at connect with the editor's headers. */
function overWebSocket(params, headers) {
  const client = createClient({ url: socketUrl.href, connectionParams: headers, lazy: true, retryAttempts: 0 });
  const events = client.iterate(params);
  return {
    next: () => events.next(),
    async return() {
      await events.return?.();
      await client.dispose();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function fetcher(params, options) {
  const headers = options?.headers ?? {};
  return isSubscription(params.query, params.operationName) ? overWebSocket(params, headers) : overHttp(params, headers);
}

createRoot(document.getElementById('explorer')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: DEFAULT_QUERY,
    defaultHeaders: '{\n  "Authorization": "Bearer "\n}',
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
  }),
);
