import { isObjectType, isUnionType, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeSupergraph, type Composed } from '../../schema/compose.js';

let composed: Composed;

beforeAll(async () => {
  composed = await composeSupergraph();
}, 60_000);

const keyOf = (type: GraphQLObjectType) =>
  type.astNode?.directives?.filter((directive) => directive.name.value === 'key').map((directive) => directive.arguments?.[0]?.value);

describe('the User entity (docs/adr/0039-shared-entities.md)', () => {
  it('is declared by each subgraph with the key id, and each lists it among its _entities', () => {
    for (const name of ['operations', 'research', 'library']) {
      const schema = composed.subgraphSchemas[name]!;
      const user = schema.getType('User');
      expect(isObjectType(user), name).toBe(true);
      expect(keyOf(user as GraphQLObjectType), name).toEqual([expect.objectContaining({ value: 'id' })]);
      const entity = schema.getType('_Entity');
      expect(isUnionType(entity) && entity.getTypes().map((type) => type.name), name).toEqual(['User']);
    }
  });

  it('joins the fields of the three subgraphs into one public type', () => {
    const user = composed.apiSchema.getType('User') as GraphQLObjectType;
    const fields = user.getFields();
    expect(fields.email?.type.toString()).toBe('String!');
    expect(fields.researchWorkspace?.type.toString()).toBe('ResearchWorkspace');
    expect(fields.libraryKeys?.type.toString()).toBe('[LibraryKey!]');
    const workspace = composed.apiSchema.getType('ResearchWorkspace') as GraphQLObjectType;
    expect(workspace.getFields().owner?.type.toString()).toBe('User');
  });

  it('keeps the fields another subgraph resolves out of the REST selections', () => {
    const workspace = composed.files.find(([path]) => path.endsWith('research/operations.graphql'))![1];
    const operation = workspace.split('\n\n').find((block) => block.startsWith('query ResearchWorkspace {'));
    expect(operation).toBeDefined();
    expect(operation).not.toContain('owner');
    expect(operation).not.toContain('creditBalance');
  });
});
