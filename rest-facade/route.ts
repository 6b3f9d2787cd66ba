import type { Context } from 'koa';
import type { Family } from '../contracts/families.js';
import type { OperationContract, RestBinding, WireResponse } from '../contracts/operation.js';
import type { FacadeError } from '../edge/facade-error.js';

/** One REST path of one operation. */
export interface Route {
  readonly contract: OperationContract;
  readonly binding: RestBinding;
  readonly family: Family;
}

/** Maps an error to one family's documented wire shape. */
export type ErrorMapper = (error: FacadeError, ctx: Context) => WireResponse;
