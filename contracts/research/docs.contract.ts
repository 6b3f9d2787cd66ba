import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';

/** The research API's own description, at the well-known address the seed names. */

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
