import { defineEntity, type EntitySchema, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';

/** A production object (mine, site…): object-scoped roles are limited to some of them. */
export const ProductionObjectEntity = defineEntity({
  name: 'ProductionObject',
  tableName: 'production_object',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    code: p.string().length(64),
    name: p.string().length(200),
    region: p.string().length(200).default(''),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type ProductionObject = InferEntity<typeof ProductionObjectEntity>;

/** A category of inventory items (TMC), optionally under a parent. */
export const TmcCategoryEntity = defineEntity({
  name: 'TmcCategory',
  tableName: 'tmc_category',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    code: p.string().length(64),
    name: p.string().length(200),
    parentId: p.uuid().nullable(),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type TmcCategory = InferEntity<typeof TmcCategoryEntity>;

/** A reason for equipment downtime, grouped, optionally under a parent. */
export const DowntimeCategoryEntity = defineEntity({
  name: 'DowntimeCategory',
  tableName: 'downtime_category',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    code: p.string().length(64),
    name: p.string().length(200),
    group: p.string().length(100),
    parentId: p.uuid().nullable(),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type DowntimeCategory = InferEntity<typeof DowntimeCategoryEntity>;

/** A class of health, safety and environment incident with its severity. */
export const HseIncidentClassifierEntity = defineEntity({
  name: 'HseIncidentClassifier',
  tableName: 'hse_incident_classifier',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    code: p.string().length(64),
    group: p.string().length(100),
    severity: p.string().length(32),
    name: p.string().length(200),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type HseIncidentClassifier = InferEntity<typeof HseIncidentClassifierEntity>;

/** A job position of the personnel. */
export const PositionEntity = defineEntity({
  name: 'Position',
  tableName: 'position',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    code: p.string().length(64),
    name: p.string().length(200),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type Position = InferEntity<typeof PositionEntity>;

/** An organization's role book entry: its permissions, and whether it is limited to assigned production objects (ADR 0024). */
export const SystemRoleEntity = defineEntity({
  name: 'SystemRole',
  tableName: 'system_role',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    code: p.string().length(32),
    name: p.string().length(200),
    description: p.string().length(1000).default(''),
    permissions: p.array().columnType('text[]').defaultRaw("'{}'::text[]"),
    scopeByObject: p.boolean().default(false),
    version: p.integer().default(1),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type SystemRole = InferEntity<typeof SystemRoleEntity>;

/** A maintenance norm of an asset class over a validity period; `value` is exact (numeric, read as a string). */
export const MaintenanceNormEntity = defineEntity({
  name: 'MaintenanceNorm',
  tableName: 'maintenance_norm',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    assetClassCode: p.string().length(64),
    norm: p.string().length(100),
    value: p.decimal('string').columnType('numeric'),
    unit: p.string().length(32),
    validFrom: p.datetime().columnType('timestamptz'),
    validTo: p.datetime().columnType('timestamptz').nullable(),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type MaintenanceNorm = InferEntity<typeof MaintenanceNormEntity>;

const BOOKS: Readonly<Record<string, EntitySchema>> = {
  ProductionObject: ProductionObjectEntity,
  TmcCategory: TmcCategoryEntity,
  DowntimeCategory: DowntimeCategoryEntity,
  HseIncidentClassifier: HseIncidentClassifierEntity,
  Position: PositionEntity,
  SystemRole: SystemRoleEntity,
  MaintenanceNorm: MaintenanceNormEntity,
};

/** The entity of a reference book, by the book's entity name. */
export function referenceBookEntity(name: string): EntitySchema {
  const entity = BOOKS[name];
  if (!entity) throw new Error(`No entity for the reference book ${name}`);
  return entity;
}
