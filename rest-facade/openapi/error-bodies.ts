import { z } from 'zod';
import type { Family } from '../../contracts/families.js';

/** The error bodies of each REST family (rest-facade/errors), described for OpenAPI. */

/** A 422 lists at most 100 problems; when there were more, these two say so. */
const ErrorCount = z.int().optional().describe('How many problems there were; present when the list names only the first 100.');
const Truncated = z.literal(true).optional().describe('Present (true) when the list names only the first 100 problems.');

const LibraryError = z
  .object({
    error: z.object({
      message: z.string().describe('Human-readable text.'),
      type: z.string().describe('Error family: `authentication_error`, `rate_limit_error`, `invalid_request_error`, `upstream_error`, …'),
      code: z.string().describe('Machine code; see `x-error-codes`.'),
      param: z.string().nullable().describe('Offending parameter.'),
      details: z
        .array(z.object({ field: z.string(), message: z.string() }))
        .nullable()
        .describe('Each problem (422), at most 100.'),
      errorCount: ErrorCount,
      truncated: Truncated,
    }),
  })
  .meta({ id: 'Error', description: 'Error body of every `/v1` operation.' });

const ValidationItem = z
  .object({
    loc: z.array(z.union([z.string(), z.int()])).describe('Where the value came from, e.g. `["path","key_id"]`.'),
    msg: z.string(),
    type: z.string().describe('`missing`, `int_parsing`, `literal_error`, …'),
    input: z.unknown().describe('The offending value.'),
    ctx: z.record(z.string(), z.unknown()).describe('Facts of the check, e.g. `{"ge": 1}`.'),
  })
  .meta({ id: 'ValidationErrorItem' });

const ValidationError = z
  .object({ detail: z.array(ValidationItem).describe('Each problem, at most 100.'), errorCount: ErrorCount, truncated: Truncated })
  .meta({ id: 'ValidationError', description: 'A problem with the input of an admin operation (422; 413 and 415 for the body itself).' });

const AdminError = z
  .object({ detail: z.string() })
  .meta({ id: 'AdminError', description: 'Any other admin error, e.g. 401 `Not authenticated`.' });

const ResearchError = z
  .object({
    error: z.string().describe('Human-readable text.'),
    code: z.string().describe('Machine code; see `x-error-codes`.'),
    details: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('Field problems (422), at most 100.'),
    errorCount: ErrorCount,
    truncated: Truncated,
    requiredScope: z.string().optional().describe('The scope the key lacks (403).'),
  })
  .meta({ id: 'ResearchError' });

const ResearchCreditsError = z
  .object({ error: z.string(), creditBalance: z.int(), requiredCredits: z.int() })
  .meta({ id: 'ResearchCreditsError', description: 'Not enough credits (402).' });

const Problem = z
  .object({
    type: z.string().optional().describe('A URI naming the problem type (`about:blank` when only the code says).'),
    title: z.string().describe("The code's stable title, the same for every occurrence (`x-error-codes` lists them)."),
    status: z.int(),
    detail: z.string().describe("This occurrence's explanation."),
    code: z.string().describe('Machine code; see `x-error-codes`.'),
    instance: z.string().describe('The request path.'),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('Field failures (422), at most 100.'),
    errorCount: ErrorCount,
    truncated: Truncated,
  })
  .catchall(z.unknown())
  .meta({
    id: 'Problem',
    description:
      'RFC 9457 problem details, as `application/problem+json`; some codes add facts as extension members (e.g. `state` and `allowedFrom` of STATE_CONFLICT, `triesLeft` of SECOND_FACTOR_INVALID).',
  });

/** The body schema and content type of an error of `status` in a family. */
export function errorBody(family: Family, status: number): { schema: z.ZodType; contentType: string } {
  switch (family) {
    case 'library':
      return { schema: LibraryError, contentType: 'application/json' };
    case 'library-admin':
      return { schema: [413, 415, 422].includes(status) ? ValidationError : AdminError, contentType: 'application/json' };
    case 'research':
      return { schema: status === 402 ? ResearchCreditsError : ResearchError, contentType: 'application/json' };
    case 'operations':
      return { schema: Problem, contentType: 'application/problem+json' };
  }
}
