import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { DOCS_ASSETS } from '../contracts/pages/docs-page.js';
import { REGISTER_ASSETS } from '../contracts/pages/register-page.js';

/**
 * The files of the documentation pages, below `/docs/assets/`: Swagger UI's browser bundle
 * and stylesheet from the installed `swagger-ui-dist` package, and the page's own start-up
 * script and stylesheet (`docs-page/`). Those of the registration page, below
 * `/api/v1/iam/register/assets/`: the ALTCHA widget's build without inline styles or workers,
 * its stylesheet and its SHA worker, from the installed `altcha` package, and the page's own
 * script and stylesheet (`register-page/`). Nothing else is served under the prefixes.
 */

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const OWN = join(import.meta.dirname, 'docs-page');
// `altcha` exports no package.json: its main entry is dist/main/altcha.umd.cjs.
const ALTCHA = join(dirname(createRequire(import.meta.url).resolve('altcha')), '..');
const REGISTER = join(import.meta.dirname, 'register-page');

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
type Files = Readonly<Record<string, { readonly file: string; readonly type: string }>>;
const DOCS_FILES: Files = {
  'swagger-ui-bundle.js': { file: join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: JS },
  'swagger-ui.css': { file: join(SWAGGER_UI, 'swagger-ui.css'), type: CSS },
  'docs.js': { file: join(OWN, 'docs.js'), type: JS },
  'docs.css': { file: join(OWN, 'docs.css'), type: CSS },
};
const REGISTER_FILES: Files = {
  'altcha.js': { file: join(ALTCHA, 'external', 'altcha.js'), type: JS },
  'altcha.css': { file: join(ALTCHA, 'external', 'altcha.css'), type: CSS },
  'sha.js': { file: join(ALTCHA, 'workers', 'sha.js'), type: JS },
  'register.js': { file: join(REGISTER, 'register.js'), type: JS },
  'register.css': { file: join(REGISTER, 'register.css'), type: CSS },
};

/** Files are read once, on first request. */
const cache = new Map<string, Buffer>();

export const serveDocsAssets = () => serveAssets(DOCS_ASSETS, DOCS_FILES);
export const serveRegisterAssets = () => serveAssets(REGISTER_ASSETS, REGISTER_FILES);

function serveAssets(under: string, files: Files): Middleware {
  const prefix = `${under}/`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const name = ctx.path.slice(prefix.length);
    const asset = Object.hasOwn(files, name) ? files[name] : undefined;
    if (!asset) return next();
    let body = cache.get(asset.file);
    if (!body) cache.set(asset.file, (body = await readFile(asset.file)));
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' });
    ctx.type = asset.type;
    ctx.body = body;
  };
}
