import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context, Middleware } from 'koa';
import { CONSOLE_CLIENT, CONSOLE_PATH, OIDC_ISSUER_PATH, WORKSPACE_RESOURCE_PATH } from '../contracts/identity.js';
import type { ConsoleSignIn } from '../runtime/config.js';

/**
 * The console in the browser (`/app`, docs/adr/0020): plain HTML, CSS and ES modules from
 * `console/`, plus the `graphql-ws` client module from the installed package — nothing from a
 * CDN, no build step. `/app/config.json` tells it where to sign in: our provider with the
 * console's own client by default, or `CONSOLE_ISSUER` and `CONSOLE_CLIENT_ID`.
 */

const ROOT = join(import.meta.dirname, '..', 'console');
/** The `graphql-ws` package's browser build: `client.js` and the chunk it imports. */
const GRAPHQL_WS = dirname(createRequire(import.meta.url).resolve('graphql-ws'));
const VENDOR = `${CONSOLE_PATH}/vendor/graphql-ws/`;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The console's own files, by path below `/app/`; anything else is a 404. */
const FILES = new Set(['index.html', 'style.css', 'app.js', 'auth.js', 'api.js', 'live.js', 'views.js', 'dom.js', 'icon.svg']);

export interface ConsoleOptions {
  readonly signIn: ConsoleSignIn | undefined;
  /** Where clients reach the deployment (our issuer is `<origin>/oidc`). */
  readonly origin: (ctx: Context) => string;
}

const origin = (url: string) => new URL(url).origin;

/** Scripts and styles from `/app` only; connections to this API, its WebSocket and the issuer; no framing. */
function securityHeaders(ctx: Context, issuer: string): Record<string, string> {
  const self = origin(`${ctx.protocol}://${ctx.host}`);
  const socket = self.replace(/^http/, 'ws');
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self' ${socket} ${origin(issuer)}`,
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

/** `/app`, `/app/…`: the console's files, its configuration and the WebSocket client; nothing else under the prefix. */
export function serveConsole(options: ConsoleOptions): Middleware {
  const cache = new Map<string, Buffer>();
  const read = async (file: string) => {
    let bytes = cache.get(file);
    if (!bytes) cache.set(file, (bytes = await readFile(file)));
    return bytes;
  };
  return async (ctx, next) => {
    if (ctx.path !== CONSOLE_PATH && !ctx.path.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.state.route = `${CONSOLE_PATH}/*`;
    if (ctx.path === CONSOLE_PATH) return ctx.redirect(`${CONSOLE_PATH}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
    const here = options.origin(ctx);
    const signIn = options.signIn ?? {
      issuer: `${here}${OIDC_ISSUER_PATH}`,
      clientId: CONSOLE_CLIENT.clientId,
      scope: CONSOLE_CLIENT.scopes.join(' '),
    };
    ctx.set(securityHeaders(ctx, signIn.issuer));
    const name = ctx.path.slice(CONSOLE_PATH.length + 1) || 'index.html';
    if (name === 'config.json') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { ...signIn, api: WORKSPACE_RESOURCE_PATH, redirectPath: CONSOLE_CLIENT.redirectPath };
      return;
    }
    let file: string | undefined;
    if (FILES.has(name)) file = join(ROOT, name);
    const vendored = ctx.path.startsWith(VENDOR) ? ctx.path.slice(VENDOR.length) : undefined;
    if (vendored && /^(client|common-[A-Za-z0-9_-]+)\.js$/.test(vendored)) file = join(GRAPHQL_WS, vendored);
    if (!file) return next();
    const extension = file.slice(file.lastIndexOf('.'));
    try {
      ctx.body = await read(file);
    } catch {
      return next();
    }
    ctx.type = TYPES[extension] ?? 'application/octet-stream';
  };
}
