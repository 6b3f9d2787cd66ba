import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantKey, timestamps } from '../domain-columns.js';

/**
 * A fuel tank at a production object. Litres are exact decimals (strings); `statusDerived` is computed by
 * the database from the balance and the minimum level.
 */
export const FuelTankEntity = defineEntity({
  name: 'FuelTank',
  tableName: 'fuel_tank',
  properties: {
    ...tenantKey(),
    objectId: p.uuid(),
    code: p.string().length(64),
    capacityLiters: p.decimal().columnType('numeric'),
    minLevelLiters: p.decimal().columnType('numeric'),
    currentBalanceLiters: p.decimal().columnType('numeric').defaultRaw('0'),
    active: p.boolean().default(true),
    statusDerived: p
      .string()
      .length(16)
      .generated(
        `(case when "current_balance_liters" <= "min_level_liters" then 'critical' when "current_balance_liters" <= "min_level_liters" * 1.2 then 'attention' else 'normal' end) stored`,
      )
      .nullable(),
    ...timestamps(),
  },
});

export type FuelTank = InferEntity<typeof FuelTankEntity>;
