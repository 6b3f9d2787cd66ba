import type Koa from 'koa';

/**
 * Decides, once at the edge, where a request comes from (`ctx.ip`, which the gateway passes to
 * subgraphs as `x-client-ip`): the socket's peer unless `TRUST_PROXY` says which proxies to
 * believe about `X-Forwarded-For` — `true` every one, a number that many from the right.
 */
export function trustProxy(app: Koa, setting: boolean | number): void {
  app.proxy = setting !== false;
  app.maxIpsCount = typeof setting === 'number' ? setting : 0;
}
