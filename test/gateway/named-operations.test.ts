import { ApolloServer } from '@apollo/server';
import type { GatewayExecutionResult, GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { buildSchema, getOperationAST, getVariableValues, GraphQLError } from 'graphql';
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { GatewayContext } from '../../gateway/context.js';
import { formatGatewayError } from '../../gateway/create-gateway.js';
import { ARMOR_CONFIG, GATEWAY_LIMITS, SUGGESTION_MASK } from '../../gateway/limits.js';
import { prepareNamedOperations } from '../../gateway/named-operations.js';
import { KnownRootOperationRule } from '../../gateway/root-operation-rule.js';
import { createLogger } from '../../runtime/logger.js';

const schema = buildSchema(`
  type Book { id: ID! title: String }
  type Query { book(id: ID!, limit: Int): Book }
`);
const OPERATIONS = new Map([['Book', 'query Book($id: ID!, $limit: Int) { book(id: $id, limit: $limit) { id title } }']]);
const logger = createLogger('silent');
const armor = new ApolloArmor(ARMOR_CONFIG).protect();
const validationRules = [...armor.validationRules, KnownRootOperationRule];
const parseOptions = { maxTokens: GATEWAY_LIMITS.maxTokens };
const apolloLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const context = (): GatewayContext => ({ headers: {}, requestId: 'r1', clientIp: undefined, logger, subgraphExtensions: {} });

/** What the gateway's executor answers, case by case: it first coerces the variables, as the gateway does. */
type Answer = (variables: Record<string, unknown>) => GatewayExecutionResult;

function executorOf(answer: Answer): GatewayExecutor {
  return async (requestContext) => {
    const operation = getOperationAST(requestContext.document, requestContext.operationName)!;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], requestContext.request.variables ?? {});
    if (coerced.errors) return { errors: coerced.errors };
    return answer(requestContext.request.variables ?? {});
  };
}

/** `/graphql`'s own path for the same executor: Apollo Server with the gateway's plugins, rules and formatting. */
async function throughApolloServer(answer: Answer, variables: Record<string, unknown>) {
  const executor = executorOf(answer);
  const gateway: GatewayInterface = {
    load: async () => ({ schema, executor }),
    onSchemaLoadOrUpdate: (callback) => {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    stop: async () => undefined,
  };
  const server = new ApolloServer<GatewayContext>({
    gateway,
    plugins: armor.plugins as never,
    parseOptions,
    validationRules,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: true,
    formatError: formatGatewayError(logger),
    logger: apolloLogger,
  });
  await server.start();
  try {
    const response = await server.executeOperation(
      { query: OPERATIONS.get('Book')!, operationName: 'Book', variables },
      { contextValue: context() },
    );
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const { data, errors } = response.body.singleResult;
    return { data, errors };
  } finally {
    await server.stop();
  }
}

function prepared(answer: Answer, registry = new Registry()) {
  const graphqlOperations = new Counter({
    name: 'qantara_graphql_operations_total',
    help: 'operations',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [registry],
  });
  const execute = prepareNamedOperations({
    operations: OPERATIONS,
    schema,
    validationRules,
    parseOptions,
    executor: executorOf(answer),
    formatError: formatGatewayError(logger),
    suggestionMask: SUGGESTION_MASK,
    logger: apolloLogger,
    metrics: { graphqlOperations },
  });
  return { execute, registry };
}

const CASES: Array<{ name: string; answer: Answer; variables: Record<string, unknown> }> = [
  { name: 'data', answer: () => ({ data: { book: { id: '1', title: 'كتاب بغداد' } } }), variables: { id: '1' } },
  {
    name: 'a coded error with an HTTP status',
    answer: () => ({
      data: { book: null },
      errors: [new GraphQLError('No such book.', { path: ['book'], extensions: { code: 'NOT_FOUND', http: { status: 404 } } })],
    }),
    variables: { id: '2' },
  },
  {
    name: 'an error with no code, its suggestion hidden',
    answer: () => ({ errors: [new GraphQLError('Cannot query field "titel". Did you mean "title"?')] }),
    variables: { id: '3' },
  },
  {
    name: 'a known code with a field suggestion in its message',
    answer: () => ({ errors: [new GraphQLError('Unknown sort. Did you mean "score"?', { extensions: { code: 'BAD_USER_INPUT' } })] }),
    variables: { id: '4' },
  },
  { name: 'variables that do not coerce', answer: () => ({ data: null }), variables: { id: '5', limit: 'many' } },
  {
    name: 'an executor that throws',
    answer: () => {
      throw new Error('subgraph unreachable');
    },
    variables: { id: '6' },
  },
];

describe('named operations prepared at start-up', () => {
  for (const { name, answer, variables } of CASES) {
    it(`answer as /graphql answers through Apollo Server: ${name}`, async () => {
      const expected = await throughApolloServer(answer, variables);
      const actual = await prepared(answer).execute('Book', variables, context());
      expect(actual).toEqual(expected);
    });
  }

  it('count every operation by name, type and outcome, as /graphql does', async () => {
    const { execute, registry } = prepared(CASES[0]!.answer);
    await execute('Book', { id: '1' }, context());
    await execute('Book', { id: '1', limit: 'many' }, context());
    await execute('Book', { id: '1' }, context());
    const counted = (await registry.getSingleMetricAsString('qantara_graphql_operations_total')).split('\n');
    expect(counted).toContain('qantara_graphql_operations_total{operation="Book",type="query",outcome="success"} 2');
    expect(counted).toContain('qantara_graphql_operations_total{operation="Book",type="query",outcome="error"} 1');
  });

  it('refuse to start on a committed operation the public graph does not validate', () => {
    expect(() =>
      prepareNamedOperations({
        operations: new Map([['Shelf', 'query Shelf { shelf { id } }']]),
        schema,
        validationRules,
        parseOptions,
        executor: executorOf(() => ({ data: null })),
        formatError: formatGatewayError(logger),
        suggestionMask: SUGGESTION_MASK,
        logger: apolloLogger,
        metrics: { graphqlOperations: new Counter({ name: 'c', help: 'c', labelNames: ['operation', 'type', 'outcome'], registers: [] }) },
      }),
    ).toThrow('named operation Shelf does not validate: Cannot query field "shelf" on type "Query".');
  });

  it('refuse to run an operation that was not prepared', async () => {
    await expect(prepared(CASES[0]!.answer).execute('Shelf', {}, context())).rejects.toThrow('no named operation Shelf');
  });
});
