import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';

/**
 * A resource's states and transitions, declared once (the seed's "States and
 * transitions" rows), and one way to move a row: a single conditional `UPDATE` — the
 * row changes only if it is in a state the transition starts from — so two concurrent
 * transitions never both apply. A row that is missing (or not visible to the caller)
 * answers 404; one in another state 409 `STATE_CONFLICT` naming both.
 *
 * Actions that keep the state but are allowed only in some states (editing an active
 * brigade, adding entries to a draft report) are declared in the same table under
 * `requires`, and checked by `requireState`, which answers the same 409.
 */

export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/** The states' rules alone, for a state that is no single text column (a flag, a pair of columns). */
export interface StateRules<S extends string, T extends string, A extends string = never> {
  /** The resource as the 409's message names it. */
  readonly entity: string;
  readonly transitions: Readonly<Record<T, Transition<S>>>;
  /** Actions that leave the state as it is, by the states they are allowed in. */
  readonly requires?: Readonly<Record<A, readonly S[]>>;
}

export interface StateMachine<S extends string, T extends string, A extends string = never> extends StateRules<S, T, A> {
  /** Schema-qualified, quoted table. */
  readonly table: string;
  readonly column: string;
}

export function defineStateMachine<S extends string, T extends string, A extends string = never>(
  machine: StateMachine<S, T, A>,
): StateMachine<S, T, A> {
  return machine;
}

export function defineStateRules<S extends string, T extends string, A extends string = never>(
  rules: StateRules<S, T, A>,
): StateRules<S, T, A> {
  return rules;
}

/** The states `name` — a transition or a state-keeping action — is allowed in. */
export function allowedStates<S extends string, T extends string, A extends string>(rules: StateRules<S, T, A>, name: T | A): readonly S[] {
  if (Object.hasOwn(rules.transitions, name)) return rules.transitions[name as T].from;
  const allowed = rules.requires && Object.hasOwn(rules.requires, name) ? rules.requires[name as A] : undefined;
  if (!allowed) throw new Error(`${rules.entity} declares no transition or action "${name}"`);
  return allowed;
}

/**
 * 409 `STATE_CONFLICT` unless `current` is a state `name` is allowed in: the check before
 * a transition that must run other work first, or of an action that keeps the state.
 * `refuse` builds the error instead where the contract names a code of its own for it.
 */
export function requireState<S extends string, T extends string, A extends string>(
  rules: StateRules<S, T, A>,
  name: T | A,
  current: S,
  refuse?: (current: S) => Error,
): void {
  const allowed = allowedStates(rules, name);
  if (!allowed.includes(current)) throw refuse ? refuse(current) : conflict(rules, current, name);
}

function conflict<S extends string, T extends string, A extends string>(
  rules: StateRules<S, T, A>,
  current: string,
  name: T | A,
): OperationsError {
  return OperationsError.stateConflict(rules.entity, current, name, allowedStates(rules, name));
}

export interface Change {
  /** Other columns the transition sets, by column name (values bound as parameters). */
  readonly set?: Readonly<Record<string, unknown>>;
  /** Columns set to SQL expressions, e.g. `{ "submitted_at": 'now()' }` — never user input. */
  readonly setSql?: Readonly<Record<string, string>>;
}

/** Moves row `id` along `transition`; returns the updated row. */
export async function transition<S extends string, T extends string, A extends string>(
  em: EntityManager,
  machine: StateMachine<S, T, A>,
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
  throw conflict(machine, current.state, name);
}
