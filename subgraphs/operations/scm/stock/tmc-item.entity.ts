import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps } from '../../domain-columns.js';

/** A stock item (TMC) of the nomenclature; prices are exact decimals (strings). */
export const TmcItemEntity = defineEntity({
  name: 'TmcItem',
  tableName: 'tmc_item',
  properties: {
    ...currentTenantKey(),
    nomenclatureCode: p.string().length(64),
    name: p.string().length(500),
    category: p.enum(['drill_tool', 'spare', 'consumable', 'other'] as const).columnType('varchar(16)'),
    unit: p.enum(['шт', 'кг', 'л', 'м', 'компл'] as const).columnType('varchar(8)'),
    assetClassId: p.uuid().nullable(),
    lastPurchasePrice: p.decimal().precision(20).scale(2).nullable(),
    weightedAvgPrice: p.decimal().precision(24).scale(4).nullable(),
    active: p.boolean().default(true),
    ...timestamps(),
  },
});

export type TmcItem = InferEntity<typeof TmcItemEntity>;
