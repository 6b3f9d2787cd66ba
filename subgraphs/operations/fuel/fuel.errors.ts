import { DomainError } from '../../../contracts/errors.js';
import { FuelErrorCode as Code } from '../../../contracts/operations/fuel/errors.js';

/** Transport-free errors of fuel tanks, supply requests, supplies and issues. */
export class FuelError extends DomainError {
  static codeTaken(code: string): FuelError {
    return new FuelError(Code.FUEL_TANK_CODE_TAKEN, `Another fuel tank has code ${code}.`, { param: 'code' });
  }

  static capacityExceeded(param: string): FuelError {
    return new FuelError(Code.FUEL_TANK_CAPACITY_EXCEEDED, 'The tank’s balance would exceed its capacity.', {
      param,
      details: [{ field: param, message: 'would take the balance above the tank’s capacity' }],
    });
  }

  static minLevelAboveCapacity(): FuelError {
    return new FuelError(Code.FUEL_MIN_LEVEL_ABOVE_CAPACITY, 'The minimum level cannot be above the tank’s capacity.', {
      param: 'minLevelLiters',
      details: [{ field: 'minLevelLiters', message: 'must not be above the capacity' }],
    });
  }

  static balanceInsufficient(): FuelError {
    return new FuelError(Code.FUEL_BALANCE_INSUFFICIENT, 'The tank holds less fuel than this takes out.');
  }

  static alreadyReversed(entity: string): FuelError {
    return new FuelError(Code.FUEL_SUPPLY_ALREADY_REVERSED, `The ${entity} was reversed already.`);
  }

  static notReversible(): FuelError {
    return new FuelError(Code.FUEL_SUPPLY_NOT_REVERSIBLE, 'A reversal cannot itself be reversed.');
  }

  static alreadyLinked(): FuelError {
    return new FuelError(Code.FUEL_SUPPLY_ALREADY_LINKED, 'The supply fulfils another supply request already.', { param: 'supplyId' });
  }

  static mismatch(param: string, message: string): FuelError {
    return new FuelError(Code.FUEL_SUPPLY_MISMATCH, `The supply and the request do not match: ${message}.`, {
      param,
      details: [{ field: param, message }],
    });
  }
}
