import { libraryOpenApi } from '../openapi/library.js';
import { renderDocsPage } from '../pages/docs-page.js';
import { PAGE_HEADERS } from '../pages/html.js';
import { renderLandingPage, type LandingPlan } from '../pages/landing-page.js';
import type { RouteDefinition } from '../route.js';

/** The docs page depends only on the description, so it is rendered once. */
let docsHtml: string | undefined;

/** `/` (landing, with the plans of `LibraryPlans`), `/docs` and `/openapi.json`. */
export const libraryPageRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/',
    family: 'library',
    operation: 'LibraryPlans',
    respond: (data, input) => ({
      type: 'text/html; charset=utf-8',
      headers: PAGE_HEADERS,
      body: renderLandingPage(data.libraryPlans as LandingPlan[], input.baseUrl),
    }),
  },
  {
    method: 'GET',
    path: '/docs',
    family: 'library',
    respond: () => {
      docsHtml ??= renderDocsPage(libraryOpenApi());
      return { type: 'text/html; charset=utf-8', headers: PAGE_HEADERS, body: docsHtml };
    },
  },
  {
    method: 'GET',
    path: '/openapi.json',
    family: 'library',
    respond: (_data, input) => ({ type: 'application/json', body: libraryOpenApi(input.baseUrl) }),
  },
];
