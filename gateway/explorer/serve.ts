import { printSchema, type GraphQLSchema } from 'graphql';
import type { Middleware } from 'koa';
import { VERSION } from '../../contracts/version.js';
import { explorerAssets } from './bundle.js';
import { CommonErrorCode, wireCode } from '../../contracts/errors.js';

/**
 * What `/graphql` serves besides GraphQL: the explorer's page (Apollo's landing page, for
 * a browser's `GET /graphql`), its script and stylesheet, and the public schema's SDL.
 */

/** Everything the page may load, and nothing more: its own script, stylesheet, fonts and the GraphQL address (HTTP and WebSocket). */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The explorer's page; its assets sit under the GraphQL address (`/graphql/explorer.js`), named relative to it. */
export function explorerPage(): string {
  // Start bundling now, so the script is ready (or nearly) when the browser asks for it.
  explorerAssets().catch(() => undefined);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Qantara GraphQL</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="graphql/explorer.css">
<script type="module" src="graphql/explorer.js"></script>
</head>
<body>
<div id="explorer">Loading the explorer…</div>
<footer class="version">Qantara GraphQL · Version <span id="version">${VERSION}</span></footer>
<noscript>The explorer needs JavaScript. Send operations to this address with <code>POST</code> and
<code>content-type: application/json</code>: <code>{"query": "…", "variables": {…}}</code>; the schema is at
<a href="graphql/schema.graphql">graphql/schema.graphql</a>.</noscript>
</body>
</html>
`;
}

/** `GET /graphql/explorer.js` and `GET /graphql/explorer.css`. */
export function serveExplorerAsset(kind: 'script' | 'style'): Middleware {
  return async (ctx) => {
    const assets = await explorerAssets();
    ctx.type = kind === 'script' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = assets[kind];
  };
}

/** `GET /graphql/schema.graphql`: the SDL of the public graph clients query (subscriptions included, internal fields not). */
export function serveSchemaDocument(apiSchema: () => GraphQLSchema | undefined): Middleware {
  const printed = new WeakMap<GraphQLSchema, string>();
  return async (ctx) => {
    const schema = apiSchema();
    if (!schema) {
      ctx.status = 503;
      ctx.body = {
        errors: [{ message: 'the gateway has not loaded its schema yet', extensions: { code: wireCode(CommonErrorCode.UNAVAILABLE) } }],
      };
      return;
    }
    let sdl = printed.get(schema);
    if (sdl === undefined) printed.set(schema, (sdl = `${printSchema(schema)}\n`));
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Content-Disposition', 'inline; filename="schema.graphql"');
    ctx.body = sdl;
  };
}
