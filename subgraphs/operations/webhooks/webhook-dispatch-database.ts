import pg from 'pg';
import { DISPATCHER_ROLE } from '../migrations/Migration20261123070000_webhooks.js';

/** The outbox trigger notifies this channel; the API notifies it too when it re-queues a delivery. */
export const WEBHOOK_WAKE_CHANNEL = 'operations_events';

/** Runs one statement of a dispatcher transaction (`$1`… parameters) and returns its rows. */
export type Sql = <T extends object>(text: string, params?: readonly unknown[]) => Promise<T[]>;

const CONNECTIONS = 4;
/** A server that does not answer is an error after this long, not a pass that never ends. */
export const CONNECT_TIMEOUT_MS = 10_000;
const END_WAIT_MS = 2000;

/**
 * The dispatcher's own small pool on the ORM's database: its background transactions neither
 * take connections from requests nor, when the server drops them, leave a connection checked
 * out of the ORM's pool (a failed rollback there is never released, and closing the ORM then
 * waits forever). Every transaction runs as `operations_webhooks`, whose policies show it every
 * organization's endpoints and deliveries and no other tenant table — never as the connecting
 * user, which may own the tables or be a superuser (docs/adr/0015-webhooks.md).
 */
export class DispatchDatabase {
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({
      connectionString,
      max: CONNECTIONS,
      application_name: 'qantara-webhooks-dispatch',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A dropped connection is reported as an 'error' event; the statement in flight rejects on its own.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // raw SQL: the dispatcher's batches (claims with `for update skip locked`, fan-out) run on its own pool and role, not the ORM's.
    const sql: Sql = async <R extends object>(text: string, params: readonly unknown[] = []) =>
      (await client.query<R>(text, params as unknown[])).rows;
    try {
      await client.query('begin');
      // raw SQL: SET LOCAL of the dispatcher's role and operation, for row-level security.
      await client.query(`select set_config('role', $1, true), set_config('app.operation', 'webhooks.dispatch', true)`, [DISPATCHER_ROLE]);
      const result = await work(sql);
      await client.query('commit');
      client.release();
      return result;
    } catch (error) {
      // The connection may be broken: it is destroyed rather than returned to the pool.
      await client.query('rollback').catch(() => undefined);
      client.release(error as Error);
      throw error;
    }
  }

  /** Closes the pool; a connection stuck opening to a server that is down is not waited for long. */
  async end(): Promise<void> {
    await Promise.race([this.pool.end().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, END_WAIT_MS).unref())]);
  }
}
