import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps } from '../../domain-columns.js';

/** A warehouse at a production object. */
export const WarehouseEntity = defineEntity({
  name: 'Warehouse',
  tableName: 'warehouse',
  properties: {
    ...currentTenantKey(),
    objectId: p.uuid(),
    code: p.string().length(64),
    name: p.string().length(200),
    active: p.boolean().default(true),
    ...timestamps(),
  },
});

export type Warehouse = InferEntity<typeof WarehouseEntity>;
