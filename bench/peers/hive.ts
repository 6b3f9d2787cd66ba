/**
 * Hive Gateway's runtime on the committed supergraph, on Node's HTTP server, forwarding the
 * caller's credential headers: the second peer of the `gateway-peers` benchmark.
 * `HIVE_DEDUPLICATE=false` turns off its merging of identical in-flight subgraph requests
 * (on by default). Subgraph addresses: `SUBGRAPH_<NAME>_URL`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Imported by name at run time: the package's types pull in a @types/node of their own, whose
// globals clash with the project's in the typecheck.
const RUNTIME = '@graphql-hive/gateway-runtime';
type Runtime = {
  createGatewayRuntime(config: Record<string, unknown>): (request: IncomingMessage, response: ServerResponse) => void;
};
const { createGatewayRuntime } = (await import(RUNTIME)) as Runtime;

const CREDENTIALS = ['authorization', 'x-api-key'];
const deduplicate = process.env.HIVE_DEDUPLICATE !== 'false';
const urls: Record<string, string | undefined> = {
  library: process.env.SUBGRAPH_LIBRARY_URL,
  research: process.env.SUBGRAPH_RESEARCH_URL,
  operations: process.env.SUBGRAPH_OPERATIONS_URL,
};

const gateway = createGatewayRuntime({
  supergraph: readFileSync(process.env.SUPERGRAPH_PATH!, 'utf8'),
  logging: 'error',
  transportEntries: Object.fromEntries(
    Object.entries(urls).map(([name, location]) => [name, { location, options: { deduplicateInflightRequests: deduplicate } }]),
  ),
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }: { request: Request }) =>
      Object.fromEntries(CREDENTIALS.flatMap((name) => (request.headers.get(name) ? [[name, request.headers.get(name)!]] : []))),
  },
});
const server = createServer(gateway);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
