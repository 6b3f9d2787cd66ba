import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/**
 * A brigade at a production object; `isActive` is computed by the database from the status. Goes to the
 * trash (`deletedAt`).
 */
export const BrigadeEntity = defineEntity({
  name: 'Brigade',
  tableName: 'brigade',
  properties: {
    ...tenantKey(),
    name: p.string().length(200),
    objectId: p.uuid(),
    workType: p.enum(['drilling', 'blasting', 'auxiliary'] as const).columnType('varchar(16)'),
    brigadierId: p.uuid().nullable(),
    status: p
      .enum(['active', 'inactive'] as const)
      .columnType('varchar(16)')
      .default('active'),
    isActive: p.boolean().generated(`("status" = 'active') stored`).nullable(),
    disbandedAt: timestamptz().nullable(),
    ...timestamps(),
    deletedAt: timestamptz().nullable(),
  },
});

export type Brigade = InferEntity<typeof BrigadeEntity>;

/** An employee's membership of a brigade; at most one open membership (`toDate` null) per employee. */
export const BrigadeMembershipEntity = defineEntity({
  name: 'BrigadeMembership',
  tableName: 'brigade_membership',
  properties: {
    ...tenantKey(),
    brigadeId: p.uuid(),
    personnelId: p.uuid(),
    fromDate: p.date(),
    toDate: p.date().nullable(),
    ...timestamps(),
  },
});

export type BrigadeMembership = InferEntity<typeof BrigadeMembershipEntity>;
