import Koa from 'koa';
import { BodyError, readJsonBody } from '../runtime/http/body.js';
import type { RunningSubgraph, SubgraphRequest } from '../subgraphs/shared/host.js';
import { serveMounts, type HttpMount } from '../subgraphs/shared/subgraph.js';
import type { Metrics } from '../runtime/metrics.js';
import { serveStream, STREAM_PATH } from './stream-endpoint.js';
import { requestHeaders } from '../runtime/http/headers.js';
import { forwardedOnly } from '../subgraphs/shared/context.js';
import { requireSubgraphSecret } from '../runtime/http/subgraph-secret.js';
import { CommonErrorCode, EdgeErrorCode, wireCode } from '../contracts/errors.js';

/**
 * Operations reach a subgraph only through the gateway, which already bounds each
 * route's body; the largest is the admin import of one book (64 MiB as a variable).
 */
const SUBGRAPH_BODY_LIMIT = 72 * 1024 * 1024;

function isRequest(body: unknown): body is SubgraphRequest {
  return typeof body === 'object' && body !== null && typeof (body as { query?: unknown }).query === 'string';
}

/**
 * One subgraph over HTTP for `ROLE=subgraph:<name>`: `POST /graphql` runs the
 * same execution path the in-process gateway uses, `POST /streams/<name>` its
 * streaming operations (NDJSON); `GET /health` is liveness. With `secret` (`SUBGRAPH_SECRET`)
 * every request must carry it, so only the gateway is answered — except under the module's
 * `mounts` (e.g. `/oidc`), public HTTP the reverse proxy routes here from browsers and clients.
 */
export function createSubgraphApp(subgraph: RunningSubgraph, metrics: Metrics, secret?: string, mounts: readonly HttpMount[] = []): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(serveMounts(mounts));
  app.use(requireSubgraphSecret(secret));
  app.use(async (ctx) => {
    if (ctx.path === '/health' && ctx.method === 'GET') {
      ctx.body = { status: 'ok', subgraph: subgraph.name };
      return;
    }
    if (ctx.path === '/metrics' && ctx.method === 'GET') {
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
      return;
    }
    const stream = ctx.method === 'POST' ? STREAM_PATH.exec(ctx.path) : null;
    if (stream) {
      await serveStream(ctx, subgraph, stream[1]!);
      return;
    }
    if (ctx.path !== '/graphql' || ctx.method !== 'POST') {
      ctx.status = 404;
      ctx.body = {
        errors: [{ message: `no route for ${ctx.method} ${ctx.path}`, extensions: { code: wireCode(CommonErrorCode.NOT_FOUND) } }],
      };
      return;
    }
    let body: unknown;
    try {
      body = await readJsonBody(ctx, SUBGRAPH_BODY_LIMIT);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      ctx.status = error.status;
      ctx.body = { errors: [{ message: error.message, extensions: { code: wireCode(EdgeErrorCode.BAD_REQUEST) } }] };
      return;
    }
    if (!isRequest(body)) {
      ctx.status = 400;
      ctx.body = {
        errors: [
          { message: 'body must be {query, variables?, operationName?}', extensions: { code: wireCode(EdgeErrorCode.BAD_REQUEST) } },
        ],
      };
      return;
    }
    ctx.body = await subgraph.execute(body, forwardedOnly(requestHeaders(ctx)));
  });
  return app;
}

/**
 * `ROLE=worker`: opens every subgraph (migrations, start-up jobs) and serves only
 * liveness and metrics; background consumers register with the subgraphs that own them.
 */
export function createWorkerApp(metrics: Metrics): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/health') {
      ctx.body = { status: 'ok', role: 'worker' };
    } else if (ctx.method === 'GET' && ctx.path === '/metrics') {
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    } else {
      ctx.status = 404;
      ctx.body = { error: `no route for ${ctx.method} ${ctx.path}`, code: 'not_found' };
    }
  });
  return app;
}
