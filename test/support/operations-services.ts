import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { OPERATIONS_ROLES, type OperationsRole } from '../../contracts/access.js';
import type { ContractInput, OperationContract } from '../../contracts/operation.js';
import { eamCreateAssetClass } from '../../contracts/operations/eam/asset-classes.contract.js';
import { eamCreateAsset } from '../../contracts/operations/eam/assets.contract.js';
import { scmCreateFuelTank } from '../../contracts/operations/fuel/tanks.contract.js';
import { hrHirePersonnel } from '../../contracts/operations/hr/personnel.contract.js';
import { scmCreateTmcItem } from '../../contracts/operations/scm/tmc-items.contract.js';
import { scmCreateWarehouse } from '../../contracts/operations/scm/warehouses.contract.js';
import { createLogger } from '../../runtime/logger.js';
import { SUBGRAPHS } from '../../subgraphs/index.js';
import type { Principal } from '../../subgraphs/operations/core/principal.js';
import { seedSystemRoles, SYSTEM_ROLE_DEFAULTS } from '../../subgraphs/operations/core/system-roles.js';
import { enterTenant, tenantTransaction } from '../../subgraphs/operations/core/tenancy.js';
import { AssetClassService } from '../../subgraphs/operations/eam/asset-class.service.js';
import { AssetService } from '../../subgraphs/operations/eam/asset.service.js';
import { eamServices } from '../../subgraphs/operations/eam/eam.operations.js';
import { fuelServices } from '../../subgraphs/operations/fuel/fuel.operations.js';
import { TankService } from '../../subgraphs/operations/fuel/tank.service.js';
import { BrigadesService } from '../../subgraphs/operations/hr/brigades.service.js';
import { HR_ASSIGNMENT_CHECKS } from '../../subgraphs/operations/hr/open-assignments.js';
import { PersonnelStatusService } from '../../subgraphs/operations/hr/personnel-status.service.js';
import { PersonnelService } from '../../subgraphs/operations/hr/personnel.service.js';
import { operatorInDraftReport } from '../../subgraphs/operations/prd/operator-assignments.js';
import { ShiftReportEntriesService } from '../../subgraphs/operations/prd/shift-report-entries.service.js';
import { ShiftReportService } from '../../subgraphs/operations/prd/shift-report.service.js';
import { AppUserEntity } from '../../subgraphs/operations/iam/app-user.entity.js';
import { OrganizationEntity } from '../../subgraphs/operations/organizations/organization.entity.js';
import { PositionEntity, ProductionObjectEntity } from '../../subgraphs/operations/reference-books/reference-book.entity.js';
import { scmServices } from '../../subgraphs/operations/scm/scm.services.js';
import { TmcItemService } from '../../subgraphs/operations/scm/stock/tmc-item.service.js';
import { WarehouseService } from '../../subgraphs/operations/scm/stock/warehouse.service.js';
import type { SubgraphContext } from '../../subgraphs/shared/context.js';
import { serviceLookup, type Services } from '../../subgraphs/shared/subgraph.js';
import type { SubgraphOrm } from '../../subgraphs/shared/orm.js';
import { migratedDatabase, type MigratedDatabase } from './migrated-database.js';

/**
 * Operations services on a fresh test database, below HTTP: the operations schema migrated,
 * one minimal organization (two production objects, its system roles, one user per role, a few
 * positions), and calls run in the pipeline's own tenant transaction (`tenantTransaction`) as a
 * role's user, so row-level security, the audit trigger, idempotency and the outbox apply as
 * they do behind a route. Builders make the common records through the services.
 */

const logger = createLogger('silent');
const POSITIONS = ['DRILLER', 'MECHANIC', 'FOREMAN'] as const;

export class OperationsServices {
  readonly users = new Map<OperationsRole, string>();
  readonly positions = new Map<(typeof POSITIONS)[number], string>();
  organizationId = '';
  /** Assets made so far: their inventory numbers are unique in the organization. */
  private assets = 0;
  /** Two production objects; object-scoped roles are limited to `north`. */
  north = '';
  south = '';
  readonly services: Services;

  private constructor(private readonly database: MigratedDatabase) {
    this.services = serviceLookup('operations (test)', [
      ...eamServices(),
      ...fuelServices(),
      ...scmServices(),
      new PersonnelService(),
      new PersonnelStatusService([...HR_ASSIGNMENT_CHECKS, operatorInDraftReport]),
      new BrigadesService(),
      new ShiftReportService(),
      new ShiftReportEntriesService(),
    ]);
  }

  get orm(): SubgraphOrm {
    return this.database.orm;
  }

  static async start(): Promise<OperationsServices> {
    const ops = new OperationsServices(await migratedDatabase(SUBGRAPHS.operations.database, { poolMax: 2 }));
    await ops.seed();
    return ops;
  }

  async stop(): Promise<void> {
    await this.database.close();
  }

  private async seed(): Promise<void> {
    await this.orm.em.fork().transactional(async (tx) => {
      const organization = tx.create(OrganizationEntity, { slug: `t-${randomUUID().slice(0, 8)}`, name: 'Test Mining' });
      await tx.flush();
      this.organizationId = organization.id;
      await enterTenant(tx, { organizationId: organization.id, objects: '*' } as Principal, 'seed', randomUUID());
      const [north, south] = ['NORTH', 'SOUTH'].map((code) =>
        tx.create(ProductionObjectEntity, { organizationId: organization.id, code, name: code }),
      );
      const positions = POSITIONS.map((code) => tx.create(PositionEntity, { organizationId: organization.id, code, name: code }));
      await tx.flush();
      this.north = north!.id;
      this.south = south!.id;
      POSITIONS.forEach((code, index) => this.positions.set(code, positions[index]!.id));
      await seedSystemRoles(tx, organization.id);
      for (const role of OPERATIONS_ROLES) {
        const scoped = SYSTEM_ROLE_DEFAULTS.some((entry) => entry.code === role && entry.scopeByObject);
        const user = tx.create(AppUserEntity, {
          email: `${role.toLowerCase()}@test.qantara.local`,
          name: `Test ${role}`,
          organizationId: organization.id,
          roles: [role],
          objectIds: scoped ? [this.north] : [],
        });
        await tx.flush();
        this.users.set(role, user.id);
      }
    });
  }

  /** The principal the guard would admit for the role's user. */
  principal(role: OperationsRole): Principal {
    const scoped = SYSTEM_ROLE_DEFAULTS.some((entry) => entry.code === role && entry.scopeByObject);
    return {
      userId: this.users.get(role)!,
      organizationId: this.organizationId,
      roles: [role],
      objects: scoped ? [this.north] : '*',
      superAdmin: false,
      tokenId: randomUUID(),
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    };
  }

  /**
   * Runs `work` as `contract` would run for the role's user: in one tenant transaction of
   * the organization (with a fresh idempotency key when the contract requires one).
   */
  async as<T>(role: OperationsRole, contract: OperationContract, work: (em: EntityManager, caller: Principal) => Promise<T>): Promise<T> {
    return this.transaction(role, contract, {}, work);
  }

  /**
   * As `as`, with `args` read by the contract first (its validation and defaults, as the
   * pipeline reads a request's input), then passed to `work`.
   */
  async run<C extends OperationContract, T>(
    role: OperationsRole,
    contract: C,
    args: Record<string, unknown>,
    work: (input: ContractInput<C>, em: EntityManager, caller: Principal) => Promise<T>,
  ): Promise<T> {
    const input = contract.args.parse(args) as ContractInput<C>;
    return this.transaction(role, contract, input, (em, caller) => work(input, em, caller));
  }

  /**
   * Runs `work` as the saga engine runs a step for the role's user (services with no
   * operation of their own, e.g. fuel issues): one transaction entered as the tenant.
   */
  step<T>(role: OperationsRole, name: string, work: (em: EntityManager, caller: Principal) => Promise<T>): Promise<T> {
    const caller = this.principal(role);
    return this.orm.em.fork().transactional(async (tx) => {
      await enterTenant(tx as EntityManager, caller, `saga:${name}`, randomUUID());
      return work(tx as EntityManager, caller);
    });
  }

  private async transaction<T>(
    role: OperationsRole,
    contract: OperationContract,
    input: unknown,
    work: (em: EntityManager, caller: Principal) => Promise<T>,
  ): Promise<T> {
    const caller = this.principal(role);
    const ctx: SubgraphContext = {
      em: this.orm.em.fork() as EntityManager,
      headers: { 'idempotency-key': randomUUID() },
      requestId: randomUUID(),
      clientIp: undefined,
      logger,
      extensions: {},
    };
    return (await tenantTransaction(contract, { ctx, caller }, (call) => work(call.ctx.em, caller), input)) as T;
  }

  get<T extends object>(cls: new (...args: never[]) => T): T {
    return this.services.get(cls as never) as T;
  }

  // Builders: each makes one record through its service, as the role that would.

  tank(input: { capacityLiters: number; initialBalanceLiters: number; minLevelLiters?: number; objectId?: string }) {
    const args = { objectId: this.north, code: `T-${randomUUID().slice(0, 8)}`, minLevelLiters: 0, ...input };
    return this.run('Admin', scmCreateFuelTank, args, (parsed, em, caller) => this.get(TankService).create(em, caller, parsed));
  }

  warehouse(objectId: string = this.north) {
    const args = { objectId, code: `W-${randomUUID().slice(0, 8)}`, name: 'Склад' };
    return this.run('Supply', scmCreateWarehouse, args, (parsed, em) => this.get(WarehouseService).create(em, parsed));
  }

  item(unit = 'кг') {
    const args = { nomenclatureCode: `N-${randomUUID().slice(0, 8)}`, name: 'Смазка', category: 'consumable', unit, initialPrice: 100 };
    return this.run('Supply', scmCreateTmcItem, args, (parsed, em) => this.get(TmcItemService).create(em, parsed));
  }

  assetClass() {
    const args = { code: `C-${randomUUID().slice(0, 8)}`, name: 'Буровые станки' };
    return this.run('Engineer', eamCreateAssetClass, args, (parsed, em, caller) => this.get(AssetClassService).create(em, caller, parsed));
  }

  async asset(objectId: string = this.north) {
    const assetClass = await this.assetClass();
    const args = {
      inventoryNumber: `БУ-${String(++this.assets).padStart(5, '0')}`,
      name: 'СБШ-250',
      assetClassId: assetClass.id,
      currentObjectId: objectId,
      commissionedAt: '2025-01-01',
      passport: { manufacturer: 'Рудгормаш', model: 'СБШ-250МНА-32' },
    };
    return this.run('Engineer', eamCreateAsset, args, (parsed, em, caller) => this.get(AssetService).create(em, caller, parsed));
  }

  employee(input: { objectId?: string; position?: (typeof POSITIONS)[number]; hiredAt?: string } = {}) {
    const args = {
      fullName: 'Ахметов Ерлан',
      tabNumber: randomUUID().slice(0, 8),
      positionId: this.positions.get(input.position ?? 'DRILLER')!,
      hiredAt: input.hiredAt ?? '2024-01-15',
      objectId: input.objectId ?? this.north,
    };
    return this.run('Admin', hrHirePersonnel, args, (parsed, em, caller) => this.get(PersonnelService).hire(em, caller, parsed));
  }
}

/**
 * The refusal's code of a promise that should fail, or 'ok'. Input the contract refuses
 * reads `VALIDATION_FAILED:<field>`, as the boundary answers it.
 */
export const outcome = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'ok',
    (error: { code?: string; issues?: Array<{ path: PropertyKey[] }> }) =>
      error instanceof z.ZodError ? `VALIDATION_FAILED:${error.issues[0]!.path.join('.')}` : (error.code ?? String(error)),
  );
