import { DemoOrganization } from './demo-organization.js';
import { OPERATIONS_ENV } from './operations.js';
import { startStack, type TestStack } from './stack.js';

/**
 * An operations stack with the demo organization's users signed in, one per role, that
 * remembers the request id of every mutation it made, so a test can prove each one left
 * an audit row.
 */
export class Actors extends DemoOrganization {
  readonly mutations: Array<{ readonly what: string; readonly requestId: string }> = [];

  private constructor(readonly stack: TestStack) {
    super(stack);
  }

  /** A fresh operations stack (`env` over the operations defaults) with every demo user signed in. */
  static async start(env: Record<string, string> = {}): Promise<Actors> {
    return new Actors(await startStack({ ...OPERATIONS_ENV, ...env })).signIn();
  }

  protected override changed(what: string, requestId: string): void {
    this.mutations.push({ what, requestId });
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
