import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publicAccess } from '../../contracts/access.js';
import { validateInput } from '../../contracts/input.js';
import { defineOperation } from '../../contracts/operation.js';

/** Unknown argument names where the input is held to its published schema (an MCP tool's). */

const rename = defineOperation({
  service: 'operations',
  name: 'renameThing',
  kind: 'mutation',
  summary: 'Rename a thing',
  access: publicAccess(),
  input: { path: { id: z.uuid() }, body: { name: z.string().min(1) } },
  output: z.object({ ok: z.boolean() }),
  rest: { method: 'PATCH', path: '/api/v1/things/:id' },
});

const id = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5';

describe('validateInput, strict', () => {
  it('refuses an argument the schema does not declare, naming it', () => {
    const result = validateInput(rename, { id, nmae: 'x' }, { wire: true, strict: true, argumentNames: true });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((issue) => [issue.path, issue.code])).toEqual([
      [['nmae'], 'unrecognized_keys'],
      [['name'], 'invalid_type'],
    ]);
  });

  it('accepts the declared arguments alone', () => {
    expect(validateInput(rename, { id, name: 'x' }, { wire: true, strict: true, argumentNames: true })).toEqual({
      ok: true,
      value: { id, name: 'x' },
    });
  });
});
