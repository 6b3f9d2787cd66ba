/** Schemas of the library's OpenAPI description (components.schemas). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const integer = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'integer', description, ...extra });
const string = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });

const LIMITS = {
  type: 'object',
  description: 'Limits in force for a key.',
  required: ['rpm', 'rpd', 'max_limit'],
  properties: {
    rpm: integer('Calls per minute.'),
    rpd: integer('Calls per UTC day (the key’s own quota when an admin set one).'),
    max_limit: integer('Largest retrieval `limit` the plan allows.'),
  },
};

const KEY_FIELDS = {
  id: integer('Key id (the `key_id` of admin paths).'),
  prefix: string('First characters of the key, to tell keys apart.', { examples: ['qk_live_Ab3x'] }),
  email: string('Owner’s e-mail address.', { format: 'email' }),
  org: { type: ['string', 'null'], description: 'Project or organisation.' },
  plan: string('Plan name.', { enum: ['free', 'pro', 'unlimited'] }),
  status: string('Key status.', { enum: ['active', 'suspended', 'revoked'] }),
  rpd_override: { type: ['integer', 'null'], description: 'Daily quota set by an admin in place of the plan’s.' },
  limits: ref('Limits'),
  created: string('When the key was issued (ISO 8601).', { format: 'date-time' }),
  last_used: { type: ['string', 'null'], format: 'date-time', description: 'Time of the last counted call (ISO 8601).' },
};

/** Bodies of the library's accounts, admin and service operations, and its error bodies. */
export const LIBRARY_SCHEMAS = {
  Error: {
    type: 'object',
    description: 'Error body of every `/v1` operation.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message', 'type', 'code', 'param', 'details'],
        properties: {
          message: string('Human-readable text.'),
          type: string('Error family.', {
            examples: ['authentication_error', 'rate_limit_error', 'invalid_request_error', 'upstream_error'],
          }),
          code: string('Machine code; see the error catalogue.', { examples: ['missing_api_key'] }),
          param: { type: ['string', 'null'], description: 'Offending parameter.' },
          details: {
            type: ['array', 'null'],
            items: {
              type: 'object',
              required: ['field', 'message'],
              properties: { field: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
    examples: [
      {
        error: {
          message: 'Missing API key: send Authorization: Bearer <key>.',
          type: 'authentication_error',
          code: 'missing_api_key',
          param: null,
          details: null,
        },
      },
    ],
  },
  ValidationErrorItem: {
    type: 'object',
    required: ['loc', 'msg', 'type'],
    properties: {
      loc: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        description: 'Where the value came from, e.g. `["path","key_id"]`.',
      },
      msg: { type: 'string' },
      type: { type: 'string', examples: ['missing', 'int_parsing', 'literal_error'] },
      input: { description: 'The offending value.' },
      ctx: { type: 'object', description: 'Facts of the check, e.g. `{"ge": 1}`.' },
    },
  },
  ValidationError: {
    type: 'object',
    description: 'Validation error of admin operations (status 422).',
    required: ['detail'],
    properties: { detail: { type: 'array', items: ref('ValidationErrorItem') } },
    examples: [
      {
        detail: [
          {
            loc: ['path', 'key_id'],
            msg: 'Input should be a valid integer, unable to parse string as an integer',
            type: 'int_parsing',
            input: 'abc',
            ctx: {},
          },
        ],
      },
    ],
  },
  AdminError: {
    type: 'object',
    description: 'Any other admin failure; a refused token says nothing about why.',
    required: ['detail'],
    properties: { detail: { type: 'string', examples: ['Not authenticated'] } },
  },
  Limits: LIMITS,
  RegisterRequest: {
    type: 'object',
    required: ['email'],
    properties: {
      email: string('Owner’s e-mail address.', { format: 'email' }),
      org: { type: ['string', 'null'], maxLength: 200, description: 'Project or organisation name.' },
    },
  },
  IssuedKey: {
    type: 'object',
    description: 'A key just issued. `key` is shown this once and cannot be retrieved later.',
    required: ['key', 'plan', 'limits'],
    properties: {
      id: integer('Key id.'),
      key: string('The API key: `qk_live_` followed by 43 URL-safe characters.', { pattern: '^qk_live_[A-Za-z0-9_-]{43}$' }),
      plan: string('Plan name.'),
      limits: ref('Limits'),
    },
  },
  Key: { type: 'object', required: Object.keys(KEY_FIELDS), properties: KEY_FIELDS },
  Me: {
    type: 'object',
    description: 'The calling key and its consumption, this call included.',
    required: [...Object.keys(KEY_FIELDS), 'usage'],
    properties: {
      ...KEY_FIELDS,
      usage: {
        type: 'object',
        required: ['today', 'this_minute', 'remaining_today', 'remaining_this_minute', 'day_reset', 'minute_reset'],
        properties: {
          today: integer('Calls counted today (UTC).'),
          this_minute: integer('Calls counted in the current minute.'),
          remaining_today: integer('Calls left today.'),
          remaining_this_minute: integer('Calls left this minute.'),
          day_reset: integer('Next UTC midnight, epoch seconds.'),
          minute_reset: integer('End of the current minute, epoch seconds.'),
        },
      },
    },
  },
  Usage: {
    type: 'object',
    required: ['days', 'from', 'to', 'total', 'usage'],
    properties: {
      days: integer('Days covered, after capping at 90.'),
      from: string('First day (UTC).', { format: 'date' }),
      to: string('Last day: today (UTC).', { format: 'date' }),
      total: integer('Calls in the whole range.'),
      usage: {
        type: 'array',
        description: 'One row per UTC day, newest first; days without calls included.',
        items: {
          type: 'object',
          required: ['date', 'calls', 'by_operation'],
          properties: {
            date: string('UTC day.', { format: 'date' }),
            calls: integer('Calls that day.'),
            by_operation: {
              type: 'object',
              additionalProperties: { type: 'integer' },
              description: 'Calls by operation (`me`, `usage`, `retrieve`, …).',
            },
          },
        },
      },
    },
  },
  Plan: {
    type: 'object',
    required: ['name', 'description', 'rpm', 'rpd', 'max_limit', 'self_service'],
    properties: {
      name: string('Plan name.'),
      description: string('What the plan is for.'),
      rpm: integer('Calls per minute.'),
      rpd: integer('Calls per UTC day.'),
      max_limit: integer('Largest retrieval `limit`.'),
      self_service: { type: 'boolean', description: 'Whether `POST /v1/register` issues keys on it.' },
    },
  },
  Plans: { type: 'object', required: ['plans'], properties: { plans: { type: 'array', items: ref('Plan') } } },
  Health: {
    type: 'object',
    required: ['status', 'service', 'version', 'checkedAt', 'components'],
    properties: {
      status: string('`ok`.'),
      service: string('`library`.'),
      version: string('Service version.'),
      checkedAt: string('When the check ran.', { format: 'date-time' }),
      components: {
        type: 'object',
        additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } } },
      },
    },
  },
  AdminCreateKey: {
    type: 'object',
    required: ['email', 'plan'],
    properties: {
      email: string('Owner’s e-mail address.', { format: 'email' }),
      plan: string('Plan of the new key.', { enum: ['free', 'pro', 'unlimited'] }),
      org: { type: ['string', 'null'], maxLength: 200 },
    },
  },
  AdminSetPlan: { type: 'object', required: ['plan'], properties: { plan: string('New plan.', { enum: ['free', 'pro', 'unlimited'] }) } },
  AdminSetRpd: {
    type: 'object',
    required: ['rpd'],
    properties: {
      rpd: {
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 100000000,
        description: 'Own daily quota; `null` returns the key to its plan’s.',
      },
    },
  },
  AdminSetStatus: {
    type: 'object',
    required: ['status'],
    properties: { status: string('New status; applies to the key’s next call.', { enum: ['active', 'suspended', 'revoked'] }) },
  },
  AdminStats: {
    type: 'object',
    required: ['keys', 'calls_today', 'top_keys'],
    properties: {
      keys: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          by_plan: { type: 'object', additionalProperties: { type: 'integer' } },
          by_status: { type: 'object', additionalProperties: { type: 'integer' } },
        },
      },
      calls_today: integer('Calls of all keys today (UTC).'),
      top_keys: {
        type: 'array',
        description: 'The ten busiest keys today.',
        items: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            prefix: { type: 'string' },
            email: { type: 'string' },
            plan: { type: 'string' },
            status: { type: 'string' },
            calls_today: { type: 'integer' },
          },
        },
      },
    },
  },
};
