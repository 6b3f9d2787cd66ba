import { rateLimitHeaders } from './library-components.js';

/** Small builders the library's path descriptions share. */

export type Schema = Record<string, unknown>;
export const integer = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
export const string = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
export const nullable = (type: string, description: string): Schema => ({ type: [type, 'null'], description });
export const object = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
});

/** The seed's error set of a metered `/v1` operation, plus any of its own. */
export const errors = (extra: Record<string, unknown> = {}) => ({
  '401': { $ref: '#/components/responses/Unauthorized' },
  ...extra,
  '429': { $ref: '#/components/responses/TooManyRequests' },
  '502': { $ref: '#/components/responses/UpstreamError' },
});
export const query = (name: string, description: string, schema: Schema, required = false) => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});
export const ERROR_JSON = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** A metered `GET` operation: rate-limit headers on its 200, the seed's errors. */
export function metered(
  operationId: string,
  summary: string,
  schema: Schema,
  parameters: unknown[] = [],
  extraErrors: Record<string, unknown> = {},
  description?: string,
) {
  return {
    get: {
      tags: ['content'],
      operationId,
      summary,
      ...(description ? { description } : {}),
      parameters,
      responses: {
        '200': { description: summary, headers: rateLimitHeaders(), content: { 'application/json': { schema } } },
        ...errors(extraErrors),
      },
    },
  };
}
