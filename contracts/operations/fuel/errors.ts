import { defineErrorCodes } from '../../errors.js';

/** Codes of fuel tanks, supply requests, supplies and issues (SCM: fuel). */
export const FuelErrorCode = defineErrorCodes('operations', {
  FUEL_TANK_CODE_TAKEN: { status: 409, description: 'Another fuel tank of the organization has this code.' },
  FUEL_TANK_CAPACITY_EXCEEDED: { status: 422, description: 'The tank’s balance would exceed its capacity.' },
  FUEL_MIN_LEVEL_ABOVE_CAPACITY: { status: 422, description: 'The minimum level cannot be above the tank’s capacity.' },
  FUEL_BALANCE_INSUFFICIENT: {
    status: 422,
    description: 'The tank holds less fuel than the operation takes out; balances never go below zero.',
  },
  FUEL_SUPPLY_ALREADY_REVERSED: { status: 409, description: 'The supply (or issue) was reversed already.' },
  FUEL_SUPPLY_NOT_REVERSIBLE: { status: 409, description: 'A reversal is a counter-entry; it cannot itself be reversed.' },
  FUEL_SUPPLY_ALREADY_LINKED: { status: 409, description: 'The supply fulfils another supply request already.' },
  FUEL_SUPPLY_MISMATCH: {
    status: 422,
    description: 'The supply and the request do not match: another tank, another request, or a reversal.',
  },
});
