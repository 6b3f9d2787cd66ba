import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { OPERATIONS_ROLES, type OperationsRole } from '../../contracts/access.js';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Call, type Session } from './operations.js';
import { startStack, type TestStack } from './stack.js';

/**
 * An operations stack with the demo organization's users signed in, one per role, that
 * remembers the request id of every mutation it made, so a test can prove each one left
 * an audit row.
 */
export class Actors {
  readonly sessions = new Map<OperationsRole, Session>();
  readonly mutations: Array<{ readonly what: string; readonly requestId: string }> = [];
  /** The demo production objects: Foremen and Mechanics are limited to NORTH. */
  north = '';
  south = '';

  private constructor(readonly stack: TestStack) {}

  static async start(): Promise<Actors> {
    const actors = new Actors(await startStack({ ...OPERATIONS_ENV }));
    for (const role of OPERATIONS_ROLES) actors.sessions.set(role, await login(actors.stack, demoEmail(role)));
    const objects = (await actors.act('Admin', 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string; code: string }>;
    actors.north = objects.find((object) => object.code === 'NORTH')!.id;
    actors.south = objects.find((object) => object.code === 'SOUTH')!.id;
    return actors;
  }

  userId(role: OperationsRole): string {
    return this.sessions.get(role)!.userId;
  }

  /** A call as the role's demo user; writes carry a fresh Idempotency-Key unless one is given. */
  async act(role: OperationsRole, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Call> {
    const requestId = randomUUID();
    const write = method !== 'GET';
    const response = await call(this.stack, this.sessions.get(role)!, method, path, body, {
      ...(write ? idempotencyKey() : {}),
      'x-request-id': requestId,
      ...headers,
    });
    // A replayed answer changed nothing, so it has no audit row of its own.
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    if (write && response.status < 300 && !replayed) this.mutations.push({ what: `${method} ${path}`, requestId });
    return response;
  }

  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const db = new pg.Client({ connectionString: this.stack.databaseUrl });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  }

  /** The mutations made through `act` that left no audit row. */
  async unaudited(): Promise<string[]> {
    const audited = await this.query<{ request_id: string }>(
      'select distinct request_id from operations.audit_log where request_id = any($1::text[])',
      [this.mutations.map((mutation) => mutation.requestId)],
    );
    const seen = new Set(audited.map((row) => row.request_id));
    return this.mutations.filter((mutation) => !seen.has(mutation.requestId)).map((mutation) => mutation.what);
  }

  /** Events of a type in the outbox, oldest first. */
  async events(type: string): Promise<Array<{ organization_id: string; payload: Record<string, unknown> }>> {
    return this.query('select organization_id, payload from operations.outbox_event where type = $1 order by sequence', [type]);
  }

  stop(): Promise<void> {
    return this.stack.stop();
  }
}
