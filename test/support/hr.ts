import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Call, type Session } from './operations.js';
import { startStack, type TestStack } from './stack.js';

/**
 * What the personnel tests stand on: an operations stack with the demo organization, its Admin,
 * Engineer and Foreman signed in, the demo objects (NORTH, SOUTH) and positions (DRILLER,
 * BLASTER), and hiring with tab numbers unique in the stack.
 */
export class PersonnelWorld {
  private tab = 0;

  private constructor(
    readonly stack: TestStack,
    readonly admin: Session,
    readonly engineer: Session,
    readonly foreman: Session,
    readonly north: string,
    readonly south: string,
    readonly driller: string,
    readonly blaster: string,
  ) {}

  static async start(): Promise<PersonnelWorld> {
    const stack = await startStack({ ...OPERATIONS_ENV });
    const [admin, engineer, foreman] = await Promise.all([
      login(stack, demoEmail('Admin')),
      login(stack, demoEmail('Engineer')),
      login(stack, demoEmail('Foreman')),
    ]);
    const byCode = async (path: string) => {
      const rows = (await call(stack, admin, 'GET', path)).body as Array<{ id: string; code: string }>;
      return (code: string) => rows.find((row) => row.code === code)!.id;
    };
    const object = await byCode('/api/v1/core/production-objects');
    const position = await byCode('/api/v1/hr/positions');
    return new PersonnelWorld(stack, admin, engineer, foreman, object('NORTH'), object('SOUTH'), position('DRILLER'), position('BLASTER'));
  }

  /** Hires a driller at NORTH as the Admin (`overrides` over that); the answer as it is. */
  hire(overrides: Record<string, unknown> = {}): Promise<Call> {
    this.tab += 1;
    const body = {
      fullName: `Employee ${this.tab}`,
      tabNumber: `T-${this.tab}`,
      positionId: this.driller,
      hiredAt: '2020-03-01',
      objectId: this.north,
      ...overrides,
    };
    return call(this.stack, this.admin, 'POST', '/api/v1/hr/personnel', body, idempotencyKey());
  }

  /** Hires as `hire` does; a refusal throws with the answer. */
  async hired(overrides: Record<string, unknown> = {}): Promise<{ id: string; tabNumber: string }> {
    const response = await this.hire(overrides);
    if (response.status !== 201) throw new Error(`hire: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  /** A personnel action (`transfer`, `terminate`…) as `session`. */
  act(session: Session, id: string, verb: string, body: Record<string, unknown> = {}): Promise<Call> {
    return call(this.stack, session, 'POST', `/api/v1/hr/personnel/${id}/${verb}`, body, idempotencyKey());
  }

  stop(): Promise<void> {
    return this.stack.stop();
  }
}
