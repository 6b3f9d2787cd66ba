/**
 * Stock `@apollo/gateway` in `@apollo/server`'s standalone server and nothing else, on the
 * committed supergraph, forwarding the caller's credential headers: the reference the
 * `gateway-peers` benchmark compares Qantara's gateway with. Plain JavaScript apart from type
 * annotations, so Node runs it without a loader. Subgraph addresses: `SUBGRAPH_<NAME>_URL`.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

const CREDENTIALS = ['authorization', 'x-api-key'];
type Context = { headers: Record<string, string> };

const gateway = new ApolloGateway({
  supergraphSdl: readFileSync(process.env.SUPERGRAPH_PATH!, 'utf8'),
  buildService: ({ name }) =>
    new RemoteGraphQLDataSource<Context>({
      url: process.env[`SUBGRAPH_${name.toUpperCase()}_URL`],
      willSendRequest({ request, context }) {
        for (const [header, value] of Object.entries((context as Partial<Context>).headers ?? {})) request.http?.headers.set(header, value);
      },
    }),
});
const server = new ApolloServer<Context>({ gateway });
const { url } = await startStandaloneServer(server, {
  listen: { port: 0, host: '127.0.0.1' },
  context: async ({ req }) => ({
    headers: Object.fromEntries(
      CREDENTIALS.flatMap((name) => {
        const value = req.headers[name];
        return typeof value === 'string' ? [[name, value]] : [];
      }),
    ),
  }),
});
process.stdout.write(`${JSON.stringify({ url: url.replace(/\/$/, '') })}\n`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
