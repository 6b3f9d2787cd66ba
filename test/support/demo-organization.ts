import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { OPERATIONS_ROLES, type OperationsRole } from '../../contracts/access.js';
import { call, demoEmail, idempotencyKey, login, type Call, type Session } from './operations.js';
import type { TestStack } from './stack.js';

/** Where the demo organization is served: an in-process stack, or a gateway of a process deployment. */
export type DemoTarget = Pick<TestStack, 'fetch' | 'databaseUrl'>;

/** A target served at a base URL (a gateway process), its database at `databaseUrl`. */
export const targetAt = (url: string, databaseUrl: string): DemoTarget & { readonly url: string } => ({
  url,
  databaseUrl,
  fetch: (path, init) => fetch(`${url}${path}`, init),
});

/**
 * The demo organization's users, one per role, signed in on a target, and its two production
 * objects. Free of the test runner, so benchmarks drive the API with it too.
 */
export class DemoOrganization {
  readonly sessions = new Map<OperationsRole, Session>();
  /** The demo production objects: Foremen and Mechanics are limited to NORTH. */
  north = '';
  south = '';

  protected constructor(readonly target: DemoTarget) {}

  /** Signs every demo user in on `target`. */
  static async signIn(target: DemoTarget): Promise<DemoOrganization> {
    return new DemoOrganization(target).signIn();
  }

  protected async signIn(): Promise<this> {
    for (const role of OPERATIONS_ROLES) this.sessions.set(role, await login(this.target, demoEmail(role)));
    const objects = (await this.act('Admin', 'GET', '/api/v1/core/production-objects')).body as Array<{ id: string; code: string }>;
    this.north = objects.find((object) => object.code === 'NORTH')!.id;
    this.south = objects.find((object) => object.code === 'SOUTH')!.id;
    return this;
  }

  userId(role: OperationsRole): string {
    return this.sessions.get(role)!.userId;
  }

  token(role: OperationsRole): string {
    return this.sessions.get(role)!.token;
  }

  /** A call as the role's demo user; writes carry a fresh Idempotency-Key unless one is given. */
  async act(role: OperationsRole, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Call> {
    const requestId = randomUUID();
    const write = method !== 'GET';
    const response = await call(this.target, this.sessions.get(role)!, method, path, body, {
      ...(write ? idempotencyKey() : {}),
      'x-request-id': requestId,
      ...headers,
    });
    // A replayed answer changed nothing, so it has no audit row of its own.
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    if (write && response.status < 300 && !replayed) this.changed(`${method} ${path}`, requestId);
    return response;
  }

  /** A write that changed something, with its request id. */
  protected changed(_what: string, _requestId: string): void {}

  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const db = new pg.Client({ connectionString: this.target.databaseUrl });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  }
}
