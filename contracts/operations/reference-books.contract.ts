import { z } from 'zod';
import { members, OPERATIONS_ROLES } from '../access.js';
import { defineOperation } from '../operation.js';
import { ops } from './fields.js';
import { defineReferenceBook, type ReferenceBook } from './reference-book.js';

/** The seven reference books of the seed (Resources; Reference books and bulk import). */

const code = ops.text(1, 64).describe('Business key within the organization.');
const name = ops.text(1, 200);

export const productionObjects = defineReferenceBook({
  module: 'core',
  slug: 'production-objects',
  entity: 'ProductionObject',
  plural: 'ProductionObjects',
  displayName: 'Production objects',
  fields: { code, name, region: ops.text(0, 200).default('') },
  businessKey: ['code'],
  updatable: ['name', 'region'],
  updateRoles: ['Admin', 'CEO'],
  importRoles: ['Admin', 'CEO'],
  objectColumn: 'id',
});

export const tmcCategories = defineReferenceBook({
  module: 'core',
  slug: 'tmc-categories',
  entity: 'TmcCategory',
  plural: 'TmcCategories',
  displayName: 'TMC categories',
  fields: { code, name, parentId: ops.ref('core.tmc-category', z.uuid()).nullable().default(null) },
  businessKey: ['code'],
  updatable: ['name', 'parentId'],
  updateRoles: ['Admin', 'CEO', 'Supply'],
  importRoles: ['Admin', 'CEO', 'Supply'],
});

export const downtimeCategories = defineReferenceBook({
  module: 'core',
  slug: 'downtime-categories',
  entity: 'DowntimeCategory',
  plural: 'DowntimeCategories',
  displayName: 'Downtime categories',
  fields: { code, name, group: ops.text(1, 100), parentId: ops.ref('core.downtime-category', z.uuid()).nullable().default(null) },
  businessKey: ['code'],
  updatable: ['name', 'group', 'parentId'],
  updateRoles: ['Admin', 'CEO'],
  importRoles: ['Admin', 'CEO'],
});

export const hseIncidentClassifiers = defineReferenceBook({
  module: 'core',
  slug: 'hse-incident-classifiers',
  entity: 'HseIncidentClassifier',
  plural: 'HseIncidentClassifiers',
  displayName: 'HSE incident classifiers',
  fields: { code, group: ops.text(1, 100), severity: ops.text(1, 32), name },
  businessKey: ['code'],
  updatable: ['group', 'severity', 'name'],
  updateRoles: ['Admin', 'CEO', 'OtibSpecialist'],
  importRoles: ['Admin', 'CEO', 'OtibSpecialist'],
});

export const positions = defineReferenceBook({
  module: 'hr',
  slug: 'positions',
  entity: 'Position',
  plural: 'Positions',
  displayName: 'Positions',
  fields: { code, name },
  businessKey: ['code'],
  updatable: ['name'],
  updateRoles: ['Admin', 'CEO'],
  importRoles: ['Admin', 'CEO'],
});

export const systemRoles = defineReferenceBook({
  module: 'hr',
  slug: 'system-roles',
  entity: 'SystemRole',
  plural: 'SystemRoles',
  displayName: 'System roles',
  fields: {
    code: z.enum(OPERATIONS_ROLES).describe('The role’s name.'),
    name,
    description: ops.text(0, 1000).default(''),
    permissions: z
      .array(z.string().min(1).max(100))
      .max(1000)
      .default([])
      .describe('Names of the operations the role may call (e.g. `hrListBrigades`); the access pipeline enforces them.'),
    scopeByObject: z.boolean().default(false).describe('Whether holders of the role see only their production objects.'),
    version: z.int().min(1).default(1).describe('Incremented on every change of the role.'),
  },
  businessKey: ['code'],
  updatable: ['name', 'description', 'permissions', 'scopeByObject'],
  updateRoles: ['Admin'],
  importRoles: null,
  countsVersions: true,
});

export const maintenanceNorms = defineReferenceBook({
  module: 'eam',
  slug: 'maintenance-norms',
  entity: 'MaintenanceNorm',
  plural: 'MaintenanceNorms',
  displayName: 'Maintenance norms',
  fields: {
    assetClassCode: ops.text(1, 64),
    norm: ops.text(1, 100),
    value: z.number(),
    unit: ops.text(1, 32),
    validFrom: ops.dateTime(),
    validTo: ops.dateTime().nullable().default(null),
  },
  businessKey: ['assetClassCode', 'norm', 'validFrom'],
  updatable: null,
  updateRoles: [],
  importRoles: ['Admin', 'CEO', 'Mechanic'],
  versioned: { key: ['assetClassCode', 'norm'] },
  listQuery: {
    assetClassCode: z.string().min(1).optional(),
    norm: z.string().min(1).optional(),
    asOf: ops.dateTime().optional().describe('The versions in force at this moment.'),
    includeHistory: z.boolean().default(false).describe('Every version, not only those in force.'),
  },
});

export const REFERENCE_BOOKS: readonly ReferenceBook[] = [
  productionObjects,
  tmcCategories,
  downtimeCategories,
  hseIncidentClassifiers,
  positions,
  systemRoles,
  maintenanceNorms,
];

export const coreReferenceBooks = defineOperation({
  service: 'operations',
  name: 'coreReferenceBooks',
  kind: 'query',
  summary: 'Registry of reference books',
  tags: ['core: reference books'],
  access: members(['CEO', 'Engineer', 'Foreman', 'Mechanic', 'OtibSpecialist', 'Supply', 'Admin'], { objectScope: false }),
  output: z.array(
    z
      .object({ module: z.string(), entity: z.string(), displayName: z.string(), ownerModule: z.string(), readPath: z.string() })
      .meta({ id: 'ReferenceBookEntry' }),
  ),
  rest: { method: 'GET', path: '/api/v1/core/reference-books' },
});
