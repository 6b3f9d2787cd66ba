import type { EntityManager } from '@mikro-orm/postgresql';
import { OPERATIONS_ROLES, type OperationsRole } from '../../../contracts/access.js';
import type { Logger } from '../../../runtime/logger.js';
import type { RunOperation } from '../../shared/subgraph.js';
import { withAfterCommit } from '../core/after-commit.js';
import { enterTenant } from '../core/tenancy.js';
import type { IamService } from '../iam/iam.service.js';
import type { SigningKeys } from '../iam/signing-keys.js';
import { seedSystemRoles, SYSTEM_ROLE_DEFAULTS } from '../core/system-roles.js';
import { demoRecords } from './demo-records.js';
import { OrganizationEntity } from '../organizations/organization.entity.js';
import { ProductionObjectEntity } from '../reference-books/reference-book.entity.js';

/**
 * What the first start puts in an empty operations database: the platform super-admin
 * (`OPS_SUPERADMIN_EMAIL` / `OPS_SUPERADMIN_PASSWORD`), and with `DEMO_OPERATIONS` a demo
 * organization — one user per role, two production objects, seeded reference books, and the
 * working records of every module with a draft shift report (demo-records.ts), all in one
 * transaction. README lists the logins. Each step is skipped when already done, so any number
 * of instances may start at once.
 */

export const DEMO = {
  slug: 'demo',
  name: 'Demo Mining',
  password: 'demo-password',
  email: (role: OperationsRole) => `${role.toLowerCase()}@demo.qantara.local`,
} as const;

/** The demo organization's sign-in emails, one per role. */
export const demoEmails = (): string[] => OPERATIONS_ROLES.map(DEMO.email);

const OBJECTS = [
  ['NORTH', 'Северный карьер', 'Карагандинская область'],
  ['SOUTH', 'Южный карьер', 'Карагандинская область'],
] as const;

const REFERENCE_ROWS: Record<string, { columns: string[]; rows: unknown[][] }> = {
  position: {
    columns: ['code', 'name'],
    rows: [
      ['DRILLER', 'Машинист буровой установки'],
      ['BLASTER', 'Взрывник'],
      ['MECHANIC', 'Механик'],
      ['FOREMAN', 'Горный мастер'],
    ],
  },
  downtime_category: {
    columns: ['code', 'name', 'group'],
    rows: [
      ['BREAKDOWN', 'Поломка', 'technical'],
      ['WEATHER', 'Погодные условия', 'external'],
      ['NO_FUEL', 'Нет топлива', 'supply'],
    ],
  },
  tmc_category: {
    columns: ['code', 'name'],
    rows: [
      ['DRILL_TOOL', 'Буровой инструмент'],
      ['SPARE', 'Запасные части'],
    ],
  },
  hse_incident_classifier: {
    columns: ['code', 'group', 'severity', 'name'],
    rows: [
      ['NEAR_MISS', 'safety', 'low', 'Потенциально опасное происшествие'],
      ['INJURY', 'safety', 'high', 'Травма'],
    ],
  },
  maintenance_norm: {
    columns: ['asset_class_code', 'norm', 'value', 'unit', 'valid_from'],
    rows: [
      ['DRILL', 'service_interval', 250, 'motor_hours', '2026-01-01T00:00:00Z'],
      ['TRUCK', 'service_interval', 500, 'motor_hours', '2026-01-01T00:00:00Z'],
    ],
  },
};

async function seedRows(tx: EntityManager, organizationId: string): Promise<void> {
  for (const [table, { columns, rows }] of Object.entries(REFERENCE_ROWS)) {
    for (const row of rows) {
      // raw SQL: seeds whichever reference-book table the seed names
      await tx.execute(
        `insert into "operations"."${table}" ("organization_id", ${columns.map((column) => `"${column}"`).join(', ')})
         values (?, ${columns.map(() => '?').join(', ')})`,
        [organizationId, ...row],
      );
    }
  }
}

/** How the demo records are made: through the operations, as the demo users (signed with these keys). */
export interface DemoRecordsVia {
  readonly run: RunOperation;
  readonly keys: SigningKeys;
}

async function demoOrganization(root: EntityManager, iam: IamService, logger: Logger, via?: DemoRecordsVia): Promise<void> {
  await withAfterCommit(root.fork(), logger, async (tx) => {
    // `on conflict do nothing`: an instance that finds the demo organization made leaves it alone.
    const organization = await tx
      .createQueryBuilder(OrganizationEntity)
      .insert({ slug: DEMO.slug, name: DEMO.name })
      .onConflict('slug')
      .ignore()
      .returning('*')
      .getSingleResult();
    if (!organization) return;
    await enterTenant(tx, { organizationId: organization.id, objects: '*' } as never, 'demo', 'first-start');
    const created = OBJECTS.map(([code, name, region]) =>
      tx.create(ProductionObjectEntity, { organizationId: organization.id, code, name, region }),
    );
    await tx.flush();
    const objects = created.map((object) => object.id);
    await seedRows(tx, organization.id);
    await seedSystemRoles(tx, organization.id);
    const users = new Map<OperationsRole, string>();
    for (const role of OPERATIONS_ROLES) {
      const scoped = SYSTEM_ROLE_DEFAULTS.some((entry) => entry.code === role && entry.scopeByObject) ? [objects[0]!] : [];
      const user = await iam.insertUser(tx, {
        email: DEMO.email(role),
        password: DEMO.password,
        name: `Demo ${role}`,
        roles: [role],
        objectIds: scoped,
        organizationId: organization.id,
      });
      users.set(role, user.id);
    }
    if (via) await demoRecords(tx, via.run, via.keys, { organizationId: organization.id, objectId: objects[0]!, users });
    logger.info({ organization: DEMO.slug, users: OPERATIONS_ROLES.map(DEMO.email) }, 'demo organization created');
  });
}

export async function firstStart(
  root: EntityManager,
  iam: IamService,
  config: { opsSuperadminEmail?: string; opsSuperadminPassword?: string; demoOperations: boolean; demoOperationsRecords: boolean },
  logger: Logger,
  via?: DemoRecordsVia,
): Promise<void> {
  const { opsSuperadminEmail: email, opsSuperadminPassword: password } = config;
  if (email && password) {
    // raw SQL: e-mail matched case-insensitively, as its unique index does
    const [existing] = await root.execute(`select 1 from "operations"."app_user" where lower("email") = lower(?)`, [email]);
    if (!existing) {
      await iam
        .insertUser(root, { email, password, name: 'Super-admin', roles: [], objectIds: [], organizationId: null, superAdmin: true })
        .catch(() => undefined);
      logger.info({ email }, 'operations super-admin created');
    }
  }
  if (config.demoOperations) await demoOrganization(root, iam, logger, config.demoOperationsRecords ? via : undefined);
}
