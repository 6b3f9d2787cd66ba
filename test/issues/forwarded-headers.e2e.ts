import { describe, expect, it } from 'vitest';
import { forwardedHeaders } from '../../gateway/data-sources.js';
import { listen } from '../../server/listen.js';
import { createMetrics } from '../../runtime/metrics.js';
import { createSubgraphApp } from '../../server/subgraph-server.js';
import { FORWARDED_HEADERS, type RequestHeaders } from '../../subgraphs/shared/context.js';
import type { RunningSubgraph } from '../../subgraphs/shared/host.js';
import { createLogger } from '../../runtime/logger.js';

const CLIENT_HEADERS = {
  authorization: 'Bearer key',
  'x-admin-token': 'admin',
  'accept-language': 'ar',
  'x-client-ip': '192.0.2.1',
  'x-request-id': 'client-chosen',
  'x-forwarded-for': '192.0.2.2',
  cookie: 'session=1',
  'x-anything': 'else',
  'user-agent': 'probe/1.0',
  'x-base-url': 'https://client-chosen.example',
};

describe('headers a subgraph sees', () => {
  it('through the gateway: the forwarded list, with the request id and client address the edge decided', () => {
    const logger = createLogger('silent');
    const context = { headers: CLIENT_HEADERS, requestId: 'edge-id', clientIp: '127.0.0.1', logger, subgraphExtensions: {} };
    expect(forwardedHeaders(context)).toEqual({
      authorization: 'Bearer key',
      'x-admin-token': 'admin',
      'accept-language': 'ar',
      'user-agent': 'probe/1.0',
      'x-request-id': 'edge-id',
      'x-client-ip': '127.0.0.1',
    });
    // With no address or base decided, a client's own x-client-ip or x-base-url is not passed on in their place.
    expect(forwardedHeaders({ ...context, clientIp: undefined })).not.toHaveProperty('x-client-ip');
    expect(forwardedHeaders({ ...context, baseUrl: 'https://api.example' })['x-base-url']).toBe('https://api.example');
  });

  it('on a subgraph server: the same forwarded list, not every header of the request', async () => {
    let seen: RequestHeaders | undefined;
    const subgraph = {
      name: 'probe',
      execute: async (_request: unknown, headers: RequestHeaders) => {
        seen = headers;
        return { data: { ok: true } };
      },
    } as unknown as RunningSubgraph;
    const server = await listen(createSubgraphApp(subgraph, createMetrics()), 0, '127.0.0.1');
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...CLIENT_HEADERS },
        body: JSON.stringify({ query: '{ ok }' }),
      });
      expect(response.status).toBe(200);
      expect(Object.keys(seen ?? {}).every((name) => (FORWARDED_HEADERS as readonly string[]).includes(name))).toBe(true);
      expect(seen).toEqual({
        authorization: 'Bearer key',
        'x-admin-token': 'admin',
        'accept-language': 'ar',
        'x-client-ip': '192.0.2.1',
        'x-request-id': 'client-chosen',
        'x-base-url': 'https://client-chosen.example',
        'user-agent': 'probe/1.0',
      });
    } finally {
      await server.close(1000);
    }
  });
});
