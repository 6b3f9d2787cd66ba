import pg from 'pg';
import { startEmbeddedPostgres } from '../../runtime/embedded-postgres.js';

/** Starts an embedded server in the given directory, runs one query, stops; prints the outcome as JSON. */
const server = await startEmbeddedPostgres(process.argv[2]!);
const client = new pg.Client({ connectionString: server.url });
await client.connect();
const { rows } = await client.query<{ version: string }>('select version()');
await client.end();
await server.stop();
process.stdout.write(`${JSON.stringify({ uid: process.getuid?.(), version: rows[0]?.version })}\n`);
