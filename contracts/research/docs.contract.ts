import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { DOCS_PAGE_HEADERS, renderDocsPage } from '../pages/docs-page.js';

/** The research API's own description, at the well-known address the seed names, and its page `/research/docs`. */

export const researchOpenApi = defineOperation({
  service: 'research',
  name: 'researchOpenApi',
  kind: 'edge',
  summary: 'This description (OpenAPI 3.1)',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: {
    method: 'GET',
    path: '/.well-known/openapi.json',
    respond: (_data, request) => ({ type: 'application/json', body: { ...request.openapi(), servers: [{ url: request.apiUrl }] } }),
  },
});

export const researchDocs = defineOperation({
  service: 'research',
  name: 'researchDocs',
  kind: 'edge',
  summary: 'Documentation page',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: {
    method: 'GET',
    path: '/research/docs',
    contentType: 'text/html',
    respond: (_data, request) => ({
      type: 'text/html; charset=utf-8',
      headers: DOCS_PAGE_HEADERS,
      body: renderDocsPage(request.openapi(), '/.well-known/openapi.json'),
    }),
  },
});
