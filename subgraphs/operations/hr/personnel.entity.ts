import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps } from '../domain-columns.js';

/** An employee of an organization; `terminatedAt` is set exactly when the status is `terminated`. */
export const PersonnelEntity = defineEntity({
  name: 'Personnel',
  tableName: 'personnel',
  properties: {
    ...tenantKey(),
    fullName: p.string().length(200),
    tabNumber: p.string().length(50),
    birthDate: p.date().nullable(),
    positionId: p.uuid(),
    status: p
      .enum(['active', 'onWatch', 'onVacation', 'terminated'] as const)
      .columnType('varchar(16)')
      .default('active'),
    objectId: p.uuid().nullable(),
    phone: p.string().length(50).nullable(),
    email: p.string().length(254).nullable(),
    hiredAt: p.date(),
    terminatedAt: p.date().nullable(),
    terminationReason: p.string().length(500).nullable(),
    arrivalDate: p.date().nullable(),
    expectedReturnDate: p.date().nullable(),
    ...timestamps(),
  },
});

export type Personnel = InferEntity<typeof PersonnelEntity>;

/** A transfer of an employee to another production object. */
export const PersonnelTransferEntity = defineEntity({
  name: 'PersonnelTransfer',
  tableName: 'personnel_transfer',
  properties: {
    ...tenantKey(),
    personnelId: p.uuid(),
    fromObjectId: p.uuid().nullable(),
    toObjectId: p.uuid(),
    reason: p.string().length(1000),
    effectiveFrom: p.date(),
    ...timestamps(),
  },
});

export type PersonnelTransfer = InferEntity<typeof PersonnelTransferEntity>;
