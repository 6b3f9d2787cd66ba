import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { DOCS_ASSETS } from '../contracts/pages/docs-page.js';

/**
 * The files of the documentation pages, below `/docs/assets/`: Swagger UI's browser bundle
 * and stylesheet from the installed `swagger-ui-dist` package, and the page's own start-up
 * script and stylesheet (`docs-page/`). Nothing else is served under the prefix.
 */

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const OWN = join(import.meta.dirname, 'docs-page');

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const FILES: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  'swagger-ui-bundle.js': { file: join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: JS },
  'swagger-ui.css': { file: join(SWAGGER_UI, 'swagger-ui.css'), type: CSS },
  'docs.js': { file: join(OWN, 'docs.js'), type: JS },
  'docs.css': { file: join(OWN, 'docs.css'), type: CSS },
};

/** Files are read once, on first request. */
const cache = new Map<string, Buffer>();

export function serveDocsAssets(): Middleware {
  const prefix = `${DOCS_ASSETS}/`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const name = ctx.path.slice(prefix.length);
    const asset = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!asset) return next();
    let body = cache.get(name);
    if (!body) cache.set(name, (body = await readFile(asset.file)));
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' });
    ctx.type = asset.type;
    ctx.body = body;
  };
}
