import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Call, type Session } from './operations.js';
import { startStack, type TestStack } from './stack.js';

/** Stock fixtures for the suppliers and stock tests: warehouses, items, receipts and balances over REST. */

export const WAREHOUSES = '/api/v1/scm/warehouses';
export const ITEMS = '/api/v1/scm/tmc/items';
export const RECEIPTS = '/api/v1/scm/tmc/receipts';
export const WRITE_OFFS = '/api/v1/scm/tmc/write-offs';
export const TRANSFERS = '/api/v1/scm/tmc/transfers';
export const REQUESTS = '/api/v1/scm/tmc/requests';
export const INVENTORIES = '/api/v1/scm/tmc/inventories';
export const BALANCES = '/api/v1/scm/tmc/balances';

export interface ReceiptLine {
  readonly itemId: string;
  readonly quantity: number;
  readonly price: number;
}

export class StockFixtures {
  private serial = 0;
  private receiverId?: Promise<string>;

  constructor(
    private readonly stack: TestStack,
    /** Who creates the fixtures (Supply or Admin). */
    private readonly keeper: Session,
  ) {}

  post(session: Session, path: string, body: unknown = {}): Promise<Call> {
    return call(this.stack, session, 'POST', path, body, idempotencyKey());
  }

  get(session: Session, path: string): Promise<Call> {
    return call(this.stack, session, 'GET', path);
  }

  /** The demo organization's production objects by code (`NORTH`, `SOUTH`). */
  async objects(): Promise<Record<string, string>> {
    const listed = await this.get(this.keeper, '/api/v1/core/production-objects');
    return Object.fromEntries((listed.body as Array<{ code: string; id: string }>).map((object) => [object.code, object.id]));
  }

  async warehouse(objectId: string): Promise<string> {
    const created = await this.post(this.keeper, WAREHOUSES, { objectId, code: `W-${randomUUID().slice(0, 8)}`, name: 'Склад ГСМ' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  async item(fields: Record<string, unknown> = {}): Promise<string> {
    this.serial += 1;
    const created = await this.post(this.keeper, ITEMS, {
      nomenclatureCode: `TMC-${randomUUID().slice(0, 8)}-${this.serial}`,
      name: 'Долото шарошечное 215,9',
      category: 'drill_tool',
      unit: 'шт',
      ...fields,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  /** The employee receipts name as their receiver: hired once, at the first production object, by the demo Admin. */
  receiver(): Promise<string> {
    this.receiverId ??= (async () => {
      const admin = await login(this.stack, demoEmail('Admin'));
      const positions = await this.get(admin, '/api/v1/hr/positions');
      const [objectId] = Object.values(await this.objects());
      const hired = await this.post(admin, '/api/v1/hr/personnel', {
        fullName: 'Кладовщик склада',
        tabNumber: `STK-${randomUUID().slice(0, 8)}`,
        positionId: (positions.body as Array<{ id: string }>)[0]!.id,
        objectId,
        hiredAt: '2024-01-15',
      });
      expect(hired.status, JSON.stringify(hired.body)).toBe(201);
      return hired.body.id as string;
    })();
    return this.receiverId;
  }

  async receive(warehouseId: string, lines: readonly ReceiptLine[], fields: Record<string, unknown> = {}): Promise<Call> {
    return this.post(this.keeper, RECEIPTS, {
      warehouseId,
      source: 'return',
      inboundDate: '2026-11-20',
      documentNumber: `ПН-${++this.serial}`,
      receivedById: await this.receiver(),
      lines,
      ...fields,
    });
  }

  async stocked(warehouseId: string, itemId: string, quantity: number, price = 100): Promise<void> {
    const received = await this.receive(warehouseId, [{ itemId, quantity, price }]);
    expect(received.status, JSON.stringify(received.body)).toBe(201);
  }

  writeOff(session: Session, warehouseId: string, lines: ReadonlyArray<{ itemId: string; quantity: number }>, targetObjectId: string) {
    return this.post(session, WRITE_OFFS, {
      warehouseId,
      targetObjectId,
      reason: 'production',
      occurredAt: new Date().toISOString(),
      lines,
    });
  }

  /** The balance of an item in a warehouse (0 when there is no row yet). */
  async balance(warehouseId: string, itemId: string, session: Session = this.keeper): Promise<number> {
    const listed = await this.get(session, `${BALANCES}?warehouseId=${warehouseId}&itemId=${itemId}`);
    expect(listed.status).toBe(200);
    return listed.body.items[0]?.quantity ?? 0;
  }

  async itemCard(itemId: string): Promise<Record<string, unknown>> {
    return (await this.get(this.keeper, `${ITEMS}/${itemId}`)).body;
  }
}

/** What the stock tests stand on: an operations stack, the demo organization's users of `roles` signed in, fixtures kept by its Supply user. */
export interface StockWorld {
  readonly stack: TestStack;
  readonly sessions: Record<OperationsRole, Session>;
  readonly stock: StockFixtures;
  /** The demo organization's production objects by code (`NORTH`, `SOUTH`). */
  readonly objects: Record<string, string>;
}

export async function startStockWorld(roles: readonly OperationsRole[]): Promise<StockWorld> {
  const stack = await startStack({ ...OPERATIONS_ENV });
  const sessions = {} as Record<OperationsRole, Session>;
  for (const role of new Set<OperationsRole>(['Supply', ...roles])) sessions[role] = await login(stack, demoEmail(role));
  const stock = new StockFixtures(stack, sessions.Supply);
  return { stack, sessions, stock, objects: await stock.objects() };
}
