import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * zod → JSON Schema for OpenAPI 3.1: named schemas (`.meta({ id })`) become shared
 * components referenced by `$ref`, collected as they are met.
 */
export class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  schema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const { $schema: _schema, $defs, ...rest } = converted;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.components[name] ??= relink(definition);
    }
    return relink(rest);
  }
}

/** `#/$defs/X` → `#/components/schemas/X`, everywhere in a schema. */
function relink(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
}
