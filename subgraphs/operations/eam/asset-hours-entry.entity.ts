import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps } from '../domain-columns.js';

/** The machine-hours ledger: a run of an asset (from a shift report) and, once, its reversal. */
export const AssetHoursEntryEntity = defineEntity({
  name: 'AssetHoursEntry',
  tableName: 'asset_hours_entry',
  properties: {
    ...tenantKey(),
    assetId: p.uuid(),
    objectId: p.uuid(),
    kind: p.enum(['run', 'reversal'] as const).columnType('varchar(16)'),
    hours: p.decimal().precision(6).scale(2),
    meterStart: p.decimal().precision(14).scale(2).nullable(),
    meterEnd: p.decimal().precision(14).scale(2).nullable(),
    sourceType: p.string().length(64),
    sourceId: p.uuid(),
    sagaId: p.uuid().nullable(),
    actorId: p.uuid().nullable(),
    reversalOfId: p.uuid().nullable(),
    reversedById: p.uuid().nullable(),
    ...timestamps(),
  },
});

export type AssetHoursEntry = InferEntity<typeof AssetHoursEntryEntity>;
