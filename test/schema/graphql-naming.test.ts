import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isInputObjectType, isObjectType, parse, printSchema, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraphQLNames, graphqlName, RELEASED_NAMES, toGraphQLNames } from '../../contracts/graphql-names.js';
import { composeSupergraph, type Composed } from '../../schema/compose.js';
import { namingProblems } from '../../schema/naming.js';

const SUPERGRAPH = join(import.meta.dirname, '..', '..', 'schema', 'supergraph.graphql');

let composed: Composed;

beforeAll(async () => {
  composed = await composeSupergraph();
});

describe('the naming rule of the graph', () => {
  it('holds for every type, field, argument and input field of the committed supergraph but deprecated aliases', () => {
    expect(namingProblems(parse(readFileSync(SUPERGRAPH, 'utf8')))).toEqual([]);
  });

  it('holds for the API schema composed from the contracts now', () => {
    expect(namingProblems(parse(printSchema(composed.apiSchema)))).toEqual([]);
  });

  it('keeps every released snake_case name as a deprecated alias naming its replacement', () => {
    const login = composed.apiSchema.getType('Login') as GraphQLObjectType;
    const fields = login.getFields();
    expect(fields.accessToken!.deprecationReason).toBeUndefined();
    expect(fields.access_token!.deprecationReason).toBe('Use accessToken; removed in the next release.');
    const refresh = composed.apiSchema.getMutationType()!.getFields().iamRefresh!;
    expect(refresh.args.map((arg) => [arg.name, arg.deprecationReason ?? null])).toEqual([
      ['refreshToken', null],
      ['refresh_token', 'Use refreshToken; removed in the next release.'],
    ]);
  });

  it('answers exactly the released names as deprecated aliases, so none outlives its removal unnoticed', () => {
    const aliases: string[] = [];
    for (const type of Object.values(composed.apiSchema.getTypeMap())) {
      if (!isObjectType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.deprecationReason) aliases.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) if (arg.deprecationReason) aliases.push(`${field.name}(${arg.name})`);
      }
    }
    const resumeAliases = ['threadUpdated(after)'];
    expect(aliases.filter((alias) => !resumeAliases.includes(alias)).sort()).toEqual([...RELEASED_NAMES].sort());
  });

  it('reports a snake_case field, argument or input field, and a type that is not PascalCase', () => {
    const sdl = `
      type Good { fineName(someArg: Int): Int old_name: Int @deprecated(reason: "Use oldName.") }
      type bad_type { snake_field(snake_arg: Int): Int }
      input SomeInput { input_field: Int }
      enum Colour { dark_red }
      scalar join__FieldSet
      type Query { _service: Int }`;
    expect(namingProblems(parse(sdl))).toEqual([
      'bad_type: type is not PascalCase',
      'bad_type.snake_field: field is not camelCase',
      'bad_type.snake_field.snake_arg: argument is not camelCase',
      'SomeInput.input_field: input field is not camelCase',
    ]);
  });
});

describe('GraphQL names of contract fields', () => {
  const Session = z.object({ started_at: z.string(), current: z.boolean(), two_factor: z.object({ challenge_id: z.string() }).nullable() });
  const Page = z.object({ items: z.array(Session) });

  it('are the wire names in camelCase', () => {
    expect(['access_token', 'why_it_can_fly', 'app_store_link', 'createdAt', 'id'].map(graphqlName)).toEqual([
      'accessToken',
      'whyItCanFly',
      'appStoreLink',
      'createdAt',
      'id',
    ]);
  });

  it('key a GraphQL result back as the schema does, nested objects and lists included', () => {
    const data = { items: [{ startedAt: 'a', current: true, twoFactor: { challengeId: 'c' } }] };
    expect(fromGraphQLNames(Page, data)).toEqual({ items: [{ started_at: 'a', current: true, two_factor: { challenge_id: 'c' } }] });
    expect(toGraphQLNames(Page, fromGraphQLNames(Page, data))).toEqual(data);
  });

  it('take a deprecated alias when the new name is absent, and report a field given both ways', () => {
    const conflicts: Parameters<typeof fromGraphQLNames>[2] = [];
    expect(fromGraphQLNames(Session, { started_at: 'old', current: false, twoFactor: null }, conflicts)).toEqual({
      started_at: 'old',
      current: false,
      two_factor: null,
    });
    expect(conflicts).toEqual([]);
    expect(fromGraphQLNames(Session, { startedAt: 'new', started_at: 'old' }, conflicts)).toEqual({ started_at: 'new' });
    expect(conflicts).toEqual([{ path: ['started_at'], name: 'startedAt', alias: 'started_at', value: 'old' }]);
  });
});
