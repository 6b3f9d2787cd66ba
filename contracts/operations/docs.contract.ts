import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { DOCS_PAGE_HEADERS, renderDocsPage } from '../pages/docs-page.js';

/** The operations API's own description: `/api/v1/openapi.json` and its page `/api/v1/docs`. */

export const operationsDocs = defineOperation({
  service: 'operations',
  name: 'operationsDocs',
  kind: 'edge',
  summary: 'Documentation page',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: [
    {
      method: 'GET',
      path: '/api/v1/docs',
      contentType: 'text/html',
      respond: (_data, request) => ({
        type: 'text/html; charset=utf-8',
        headers: DOCS_PAGE_HEADERS,
        body: renderDocsPage(request.openapi(), '/api/v1/openapi.json'),
      }),
    },
    {
      method: 'GET',
      path: '/api/v1/openapi.json',
      summary: 'This description (OpenAPI 3.1)',
      respond: (_data, request) => ({ type: 'application/json', body: { ...request.openapi(), servers: [{ url: request.baseUrl }] } }),
    },
  ],
});
