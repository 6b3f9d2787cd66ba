import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';

/**
 * A resource's states and transitions, declared once (the seed's "States and
 * transitions" rows), and one way to move a row: a single conditional `UPDATE` — the
 * row changes only if it is in a state the transition starts from — so two concurrent
 * transitions never both apply. A row that is missing (or not visible to the caller)
 * answers 404; one in another state 409 `STATE_CONFLICT` naming both.
 */

export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

export interface StateMachine<S extends string, T extends string> {
  readonly entity: string;
  /** Schema-qualified, quoted table. */
  readonly table: string;
  readonly column: string;
  readonly transitions: Readonly<Record<T, Transition<S>>>;
}

export function defineStateMachine<S extends string, T extends string>(machine: StateMachine<S, T>): StateMachine<S, T> {
  return machine;
}

export interface Change {
  /** Other columns the transition sets, by column name (values bound as parameters). */
  readonly set?: Readonly<Record<string, unknown>>;
  /** Columns set to SQL expressions, e.g. `{ "submitted_at": 'now()' }` — never user input. */
  readonly setSql?: Readonly<Record<string, string>>;
}

/** Moves row `id` along `transition`; returns the updated row. */
export async function transition<S extends string, T extends string>(
  em: EntityManager,
  machine: StateMachine<S, T>,
  name: T,
  id: string,
  change: Change = {},
): Promise<Record<string, unknown>> {
  const { from, to } = machine.transitions[name];
  const values = Object.entries(change.set ?? {});
  const assignments = [
    `"${machine.column}" = ?`,
    ...values.map(([column]) => `"${column}" = ?`),
    ...Object.entries(change.setSql ?? {}).map(([column, sql]) => `"${column}" = ${sql}`),
    `"updated_at" = now()`,
  ];
  // raw SQL: the one conditional UPDATE of every transition, on whichever table the machine names
  const [row] = await em.execute<Array<Record<string, unknown>>>(
    `update ${machine.table} set ${assignments.join(', ')} where "id" = ? and "${machine.column}" = any(?::text[]) returning *`,
    [to, ...values.map(([, value]) => value), id, `{${from.join(',')}}`],
  );
  if (row) return row;
  // raw SQL: the current state of a row of the machine's table, to tell 404 from 409
  const [current] = await em.execute<Array<{ state: string }>>(
    `select "${machine.column}" as "state" from ${machine.table} where "id" = ?`,
    [id],
  );
  if (!current) throw OperationsError.notFound(machine.entity);
  throw OperationsError.stateConflict(machine.entity, current.state, String(name), from);
}
