import { z } from 'zod';
import { VERSION } from '../../version.js';
import type { OperationContract } from '../../operation.js';
import { OPERATIONS_EVENTS } from './catalog.js';
import type { EventContract } from './event.js';

type JsonSchema = Record<string, unknown>;

/**
 * The AsyncAPI 3.0 description of the operations service's events, built from their
 * declarations: one channel per event type (its address the type), one message per channel
 * whose payload is the envelope a webhook receives (`{type, timestamp, data}`), and one
 * `receive` operation per channel. Named payload types are shared components.
 */
export function operationsAsyncApi(contracts: readonly OperationContract[]): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType): JsonSchema => {
    const converted = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-7' }) as JsonSchema;
    const { $schema: _schema, definitions, $defs, ...rest } = converted;
    for (const [name, definition] of Object.entries({ ...(definitions ?? {}), ...($defs ?? {}) } as Record<string, JsonSchema>)) {
      schemas[name] ??= relink(definition);
    }
    return relink(rest);
  };
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const event of OPERATIONS_EVENTS) {
    const id = event.name;
    messages[id] = {
      name: event.name,
      title: event.name,
      summary: event.summary,
      ...(event.operation ? { description: `Published when \`${event.operation}\` succeeds; \`data\` is its result.` } : {}),
      contentType: 'application/json',
      payload: envelope(event.name, convert(payloadOf(event, contracts))),
    };
    channels[id] = { address: event.name, title: event.name, messages: { [id]: { $ref: `#/components/messages/${id}` } } };
    operations[id] = {
      action: 'receive',
      summary: event.summary,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/${id}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Qantara operations events',
      version: VERSION,
      description:
        'Every domain event of the operations service. Each is written to the outbox in the transaction of the change it reports ' +
        'and delivered to the webhook endpoints whose event types match it (`POST /api/v1/webhooks/endpoints`: an exact type, ' +
        'a prefix wildcard such as `eam.asset.*`, or `*`), signed the Standard Webhooks way.',
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages, schemas },
  };
}

function payloadOf(event: EventContract, contracts: readonly OperationContract[]): z.ZodType {
  if (event.payload) return event.payload;
  const contract = contracts.find((candidate) => candidate.name === event.operation);
  if (!contract) throw new Error(`event ${event.name}: no operation ${event.operation}`);
  return contract.output;
}

function envelope(type: string, data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type },
      timestamp: { type: 'string', format: 'date-time', description: 'When the event occurred.' },
      data: data,
    },
  };
}

/** Local definitions → shared components, everywhere in a schema. */
function relink(schema: JsonSchema): JsonSchema {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/definitions/', '"#/components/schemas/').replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as JsonSchema;
}
