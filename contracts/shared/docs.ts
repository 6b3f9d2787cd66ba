import type { RestBinding, WireRequest } from '../operation.js';
import { DOCS_PAGE_HEADERS, renderDocsPage } from '../pages/docs-page.js';

/** The routes of a service's own description: its OpenAPI document, and the page that renders it. */

/** `GET path`: the documentation page, reading the description from `openapiPath`. */
export function docsPageRoute(path: string, openapiPath: string): RestBinding {
  return {
    method: 'GET',
    path,
    contentType: 'text/html',
    respond: (_data, request) => ({
      type: 'text/html; charset=utf-8',
      headers: DOCS_PAGE_HEADERS,
      body: renderDocsPage(request.openapi(), openapiPath),
    }),
  };
}

/** `GET path`: the OpenAPI description; with `server`, its `servers` name the base the request's calls go to. */
export function openApiRoute(path: string, server?: (request: WireRequest) => string): RestBinding {
  return {
    method: 'GET',
    path,
    summary: 'This description (OpenAPI 3.1)',
    respond: (_data, request) => ({
      type: 'application/json',
      body: server ? { ...request.openapi(), servers: [{ url: server(request) }] } : request.openapi(),
    }),
  };
}
