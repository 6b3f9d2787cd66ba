import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps, timestamptz } from '../domain-columns.js';

/** A shift report of a production object; one per shift unless rejected. */
export const ShiftReportEntity = defineEntity({
  name: 'ShiftReport',
  tableName: 'shift_report',
  properties: {
    ...tenantKey(),
    productionObjectId: p.uuid(),
    shiftDate: p.date(),
    shiftType: p.enum(['day', 'night'] as const).columnType('varchar(8)'),
    status: p
      .enum(['draft', 'submitted', 'approved', 'rejected'] as const)
      .columnType('varchar(16)')
      .default('draft'),
    createdBy: p.uuid().nullable(),
    submittedBy: p.uuid().nullable(),
    submittedAt: timestamptz().nullable(),
    approvedBy: p.uuid().nullable(),
    approvedAt: timestamptz().nullable(),
    approveSagaId: p.uuid().nullable(),
    rejectSagaId: p.uuid().nullable(),
    rejectedBy: p.uuid().nullable(),
    rejectedAt: timestamptz().nullable(),
    rejectReason: p.string().length(500).nullable(),
    ...timestamps(),
  },
});

export type ShiftReport = InferEntity<typeof ShiftReportEntity>;
