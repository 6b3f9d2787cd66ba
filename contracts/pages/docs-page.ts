import { escapeHtml, selfServedPageHeaders } from './html.js';

/**
 * The documentation pages (`/docs`, `/api/v1/docs`, `/research/docs`): Swagger UI from the
 * `swagger-ui-dist` package renders the service's OpenAPI document in the browser
 * (docs/adr/0028-docs-renderer.md). Every file the page loads is served by Qantara below
 * `DOCS_ASSETS`; the policy below lets the browser load nothing else.
 */

export const DOCS_ASSETS = '/docs/assets';

/** The three pages and the documents they render, for the page's own navigation and `/`. */
export const DOCS_PAGES = [
  { path: '/docs', openapi: '/openapi.json', title: 'Library', ar: 'المكتبة' },
  { path: '/research/docs', openapi: '/.well-known/openapi.json', title: 'Research', ar: 'الأبحاث' },
  { path: '/api/v1/docs', openapi: '/api/v1/openapi.json', title: 'Operations', ar: 'العمليات' },
] as const;

/**
 * Scripts, styles and the document from this origin only; no inline script or style (Swagger UI
 * sets its styles through the DOM, which a policy does not govern); its icons are `data:` images.
 */
export const DOCS_PAGE_HEADERS = selfServedPageHeaders([
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
]);

/** The page of one service's OpenAPI document, served at `openapi` (a path on this origin). */
export function renderDocsPage(document: Record<string, unknown>, openapi: string): string {
  const title = String((document.info as { title?: unknown } | undefined)?.title ?? 'Qantara API');
  const nav = DOCS_PAGES.map(
    (entry) => `<a href="${entry.path}"${entry.openapi === openapi ? ' aria-current="page"' : ''}>${escapeHtml(entry.title)}</a>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — documentation</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
<link rel="stylesheet" href="${DOCS_ASSETS}/docs.css">
</head>
<body>
<header class="qantara"><nav><a href="/"><strong>Qantara · قنطرة</strong></a>${nav}<a href="${escapeHtml(openapi)}">OpenAPI document</a></nav></header>
<main id="docs" data-openapi="${escapeHtml(openapi)}"></main>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/docs.js"></script>
</body>
</html>
`;
}
