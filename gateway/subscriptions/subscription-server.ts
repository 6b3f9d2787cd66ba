import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import { GraphQLError, Kind, type ExecutionArgs, type GraphQLSchema, type OperationDefinitionNode, getOperationAST, parse } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { resumeArgumentsOf, type SubscriptionContract } from '../../contracts/subscription.js';
import type { Logger } from '../../runtime/logger.js';
import type { RequestHeaders } from '../../subgraphs/shared/context.js';
import type { GatewayContext } from '../context.js';
import { prepareSubscription, subscriptionField, type PreparedSubscription } from './subscription-schema.js';
import { TopicListener } from './topic-listener.js';
import { CommonErrorCode, EdgeErrorCode, errorCode, type ErrorKey } from '../../contracts/errors.js';

/**
 * GraphQL subscriptions over graphql-ws on the gateway's HTTP server (`/graphql`), for
 * every declared subscription (contracts/subscription.ts): the credentials of the
 * connection (`connectionParams.authorization`, else the upgrade request's header) are
 * checked at connect by the services' `authenticate` queries; each subscription asks its
 * service for a grant through the gateway, like any query, then reads the granted topic
 * from the service's feed. Queries and mutations stay on `POST /graphql`.
 */

export interface SubscriptionServerOptions {
  readonly server: Server;
  readonly apollo: ApolloServer<GatewayContext>;
  /** The supergraph's API schema, as the gateway last loaded it. */
  readonly apiSchema: () => GraphQLSchema | undefined;
  readonly subscriptions: readonly SubscriptionContract[];
  /** Where the feeds are; without one, subscribing answers 503. */
  readonly databaseUrl: string | undefined;
  readonly logger: Logger;
  /** Headers every WebSocket upgrade answer carries (which HTTP worker took the connection). */
  readonly upgradeHeaders?: Readonly<Record<string, string>>;
}

export interface SubscriptionServer {
  close(): Promise<void>;
}

interface ConnectionState {
  headers: RequestHeaders;
  clientIp: string | undefined;
  /** The credential checks (documents) the connection passed at connect. */
  passed?: ReadonlySet<string>;
}

const CREDENTIAL_HEADERS = ['authorization', 'x-api-key'] as const;

/** Credentials from `connectionParams` (flat or under `headers`, any case), else from the upgrade request. */
function credentials(params: Record<string, unknown> | undefined, upgrade: Record<string, string | string[] | undefined>): RequestHeaders {
  const nested = (params?.headers ?? {}) as Record<string, unknown>;
  const given = Object.fromEntries(
    Object.entries({ ...nested, ...params }).map(([name, value]) => [name.toLowerCase(), typeof value === 'string' ? value : undefined]),
  );
  const headers: Record<string, string | undefined> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const value = given[name] ?? upgrade[name];
    if (typeof value === 'string' && value.trim()) headers[name] = value;
  }
  return headers;
}

/** A refusal under a registered code, with the status the registry gives it. */
const failure = (message: string, key: ErrorKey) => {
  const { code, status } = errorCode(key);
  return new GraphQLError(message, { extensions: { code, http: { status } } });
};

type SubscribeRoot = (args: Record<string, unknown>, state: ConnectionState) => Promise<AsyncIterableIterator<unknown>>;

/** The subscriptions of one gateway: what each loaded supergraph needs, connection checks, grants and feed listeners. */
class GatewaySubscriptions {
  private readonly listeners = new Map<string, TopicListener>();
  private readonly prepared = new WeakMap<
    GraphQLSchema,
    { schema: GraphQLSchema; subscriptions: PreparedSubscription[]; root: Record<string, SubscribeRoot> }
  >();

  constructor(private readonly options: SubscriptionServerOptions) {}

  /**
   * The supergraph the gateway serves now, with its subscriptions prepared (again when it
   * changes). The schema is the one served over HTTP; the subscriptions are run through the
   * subscription root value, one function per field, so the schema itself is never changed.
   */
  current() {
    const api = this.options.apiSchema();
    if (!api) throw failure('the gateway has not loaded its schema yet', CommonErrorCode.UNAVAILABLE);
    let entry = this.prepared.get(api);
    if (!entry) {
      const subscriptions = this.options.subscriptions.map((contract) => {
        subscriptionField(api, contract);
        return prepareSubscription(api, contract);
      });
      const root: Record<string, SubscribeRoot> = {};
      for (const prepared of subscriptions) root[prepared.contract.name] = (args, state) => this.events(prepared, args, state);
      entry = { schema: api, subscriptions, root };
      this.prepared.set(api, entry);
    }
    return entry;
  }

  /** Runs a query through the gateway as the connection's caller, like any HTTP request. */
  private async run(document: string, variables: Record<string, unknown>, state: ConnectionState) {
    const requestId = randomUUID();
    const contextValue: GatewayContext = {
      headers: state.headers,
      requestId,
      clientIp: state.clientIp,
      logger: this.options.logger.child({ requestId }),
      subgraphExtensions: {},
    };
    const response = await this.options.apollo.executeOperation({ query: document, variables }, { contextValue });
    if (response.body.kind !== 'single') throw failure('unexpected incremental answer', CommonErrorCode.INTERNAL_SERVER_ERROR);
    return response.body.singleResult;
  }

  /** The credential checks the connection passes (none: no service accepts its credentials). */
  async checksPassed(state: ConnectionState): Promise<ReadonlySet<string>> {
    const checks = new Set(this.current().subscriptions.flatMap((entry) => entry.access.map((access) => access.authenticateDocument)));
    const passed = new Set<string>();
    for (const document of checks) {
      const result = await this.run(document, {}, state).catch(() => undefined);
      if (result && !result.errors?.length) passed.add(document);
    }
    return passed;
  }

  private async events(entry: PreparedSubscription, args: Record<string, unknown>, state: ConnectionState) {
    const resume = resumeArgumentsOf(entry.contract);
    const grantArgs = Object.fromEntries(Object.entries(args).filter(([name]) => !resume.includes(name)));
    const after = resume.map((name) => args[name]).find((value) => typeof value === 'number');
    const access = entry.access.find((candidate) => state.passed?.has(candidate.authenticateDocument));
    if (!access) throw failure(`these credentials cannot watch ${entry.contract.name}`, CommonErrorCode.FORBIDDEN);
    const result = await this.run(access.grantDocument, grantArgs, state);
    const refusal = result.errors?.[0];
    if (refusal) throw new GraphQLError(refusal.message, { extensions: refusal.extensions });
    const topic = (result.data?.[access.grantField] as { topic?: unknown } | undefined)?.topic;
    if (typeof topic !== 'string') throw failure('the service granted no topic', CommonErrorCode.INTERNAL_SERVER_ERROR);
    return feedIterator(this.listener(entry.contract.feed), topic, typeof after === 'number' ? after : 0, entry.contract.name);
  }

  private listener(feed: SubscriptionContract['feed']): TopicListener {
    if (!this.options.databaseUrl) throw failure('subscriptions need DATABASE_URL on this gateway', CommonErrorCode.UNAVAILABLE);
    let found = this.listeners.get(feed.channel);
    if (!found) this.listeners.set(feed.channel, (found = new TopicListener(this.options.databaseUrl, feed, this.options.logger)));
    return found;
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners.values()].map((listener) => listener.close()));
  }
}

/** A query of nothing but the schema's own fields (`__schema`, `__type`, `__typename`): it reads no service. */
const isIntrospection = (operation: OperationDefinitionNode) =>
  operation.operation === 'query' &&
  operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith('__'));

/**
 * Queries and mutations stay on `POST /graphql`, but for introspection, so a client on the
 * socket can read the schema it subscribes with; a document graphql-ws cannot parse is left
 * to it to answer.
 */
function onlySubscriptions(query: string, operationName: string | null | undefined): readonly GraphQLError[] | undefined {
  let operation;
  try {
    operation = getOperationAST(parse(query), operationName ?? undefined);
  } catch {
    return undefined;
  }
  if (operation && operation.operation !== 'subscription' && !isIntrospection(operation)) {
    return [
      failure('only subscriptions are served over WebSocket; send queries and mutations to POST /graphql', EdgeErrorCode.BAD_REQUEST),
    ];
  }
  return undefined;
}

export function attachSubscriptions(options: SubscriptionServerOptions): SubscriptionServer {
  const subscriptions = new GatewaySubscriptions(options);
  const wss = new WebSocketServer({ server: options.server, path: '/graphql' });
  const upgradeHeaders = Object.entries(options.upgradeHeaders ?? {}).map(([name, value]) => `${name}: ${value}`);
  if (upgradeHeaders.length > 0) wss.on('headers', (headers) => headers.push(...upgradeHeaders));
  const disposable = useServer<Record<string, unknown>, { state?: ConnectionState }>(
    {
      schema: () => subscriptions.current().schema,
      roots: {
        get subscription() {
          return subscriptions.current().root;
        },
      } as never,
      context: (ctx) => ctx.extra.state as unknown as Record<string, unknown>,
      onConnect: async (ctx) => {
        const headers = credentials(ctx.connectionParams, ctx.extra.request.headers);
        if (!headers.authorization && !headers['x-api-key']) return false;
        const state: ConnectionState = { headers, clientIp: ctx.extra.request.socket.remoteAddress };
        state.passed = await subscriptions.checksPassed(state);
        if (state.passed.size === 0) return false;
        ctx.extra.state = state;
        return true;
      },
      onSubscribe: (_ctx, _id, payload) =>
        (onlySubscriptions(payload.query, payload.operationName) ?? undefined) as unknown as ExecutionArgs,
    },
    wss,
  );
  return {
    async close() {
      // Closes every client with 1001 "Going away", then the WebSocket server.
      await disposable.dispose();
      await subscriptions.close();
    },
  };
}

/**
 * The feed's events as GraphQL payloads (under the field's name, where the default resolver
 * reads them); `return()` (the client stopped) aborts the wait at once.
 */
function feedIterator(listener: TopicListener, topic: string, after: number, field: string): AsyncIterableIterator<unknown> {
  const controller = new AbortController();
  const source = listener.subscribe(topic, after, controller.signal);
  const iterator: AsyncIterableIterator<unknown> = {
    async next() {
      const next = await source.next();
      return next.done ? next : { done: false, value: { [field]: { ...next.value.payload, sequence: next.value.sequence } } };
    },
    async return() {
      controller.abort();
      await source.return(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
