import { describe, expect, it } from 'vitest';
import { allowedStates, defineStateRules, requireState } from '../../../subgraphs/operations/core/state-machine.js';
import { assetMachine } from '../../../subgraphs/operations/eam/machines.js';
import { OperationsError } from '../../../subgraphs/operations/operations.errors.js';
import { supplierMachine, tmcItemRules } from '../../../subgraphs/operations/scm/machines.js';

/** The rules alone, judged as data: nothing here touches a database. */
const lamp = defineStateRules<'off' | 'on' | 'broken', 'switchOn' | 'switchOff', 'dust' | 'repair'>({
  entity: 'Lamp',
  transitions: {
    switchOn: { from: ['off'], to: 'on' },
    switchOff: { from: ['on'], to: 'off' },
  },
  requires: { dust: ['off', 'on'], repair: ['broken'] },
});

function conflictOf(check: () => void): OperationsError {
  try {
    check();
  } catch (error) {
    if (error instanceof OperationsError) return error;
    throw error;
  }
  throw new Error('expected a state conflict');
}

describe('state rules', () => {
  it('reads the allowed states of a transition from its `from` and of a state-keeping action from `requires`', () => {
    expect(allowedStates(lamp, 'switchOn')).toEqual(['off']);
    expect(allowedStates(lamp, 'dust')).toEqual(['off', 'on']);
    expect(allowedStates(lamp, 'repair')).toEqual(['broken']);
  });

  it('lets a transition or an action through in every state it is allowed in', () => {
    expect(() => requireState(lamp, 'switchOff', 'on')).not.toThrow();
    expect(() => requireState(lamp, 'dust', 'off')).not.toThrow();
    expect(() => requireState(lamp, 'dust', 'on')).not.toThrow();
  });

  it('answers 409 STATE_CONFLICT naming the current state, the action and the states it needs', () => {
    const error = conflictOf(() => requireState(lamp, 'dust', 'broken'));
    expect(error.status).toBe(409);
    expect(error.code).toBe('STATE_CONFLICT');
    expect(error.message).toBe('Lamp is broken; dust needs off or on.');
    expect(error.meta).toEqual({ state: 'broken', allowedFrom: ['off', 'on'] });
  });

  it('refuses a transition from a state outside its `from`', () => {
    const error = conflictOf(() => requireState(lamp, 'switchOn', 'on'));
    expect(error.message).toBe('Lamp is on; switchOn needs off.');
  });

  it('answers the error `refuse` builds, given the current state, where the contract names a code of its own', () => {
    const refusal = new Error('the lamp is broken');
    const seen: string[] = [];
    const refuse = (state: string) => {
      seen.push(state);
      return refusal;
    };
    expect(() => requireState(lamp, 'switchOn', 'broken', refuse)).toThrow(refusal);
    expect(seen).toEqual(['broken']);
    expect(() => requireState(lamp, 'switchOn', 'off', refuse)).not.toThrow();
    expect(seen).toEqual(['broken']);
  });

  it('throws a programming error for a name the rules do not declare', () => {
    expect(() => requireState(lamp, 'paint' as 'dust', 'on')).toThrow('Lamp declares no transition or action "paint"');
  });

  it('keeps the messages the operations API answers today', () => {
    expect(conflictOf(() => requireState(assetMachine, 'fromRepair', 'operational')).message).toBe(
      'Asset is operational; fromRepair needs maintenance.',
    );
    expect(conflictOf(() => requireState(assetMachine, 'schedule maintenance', 'decommissioned')).message).toBe(
      'Asset is decommissioned; schedule maintenance needs operational or maintenance or conserved.',
    );
    expect(conflictOf(() => requireState(supplierMachine, 'changing its details', 'archived')).message).toBe(
      'Supplier is archived; changing its details needs draft or active or suspended.',
    );
    expect(conflictOf(() => requireState(tmcItemRules, 'deactivate', 'inactive')).message).toBe(
      'TMC item is inactive; deactivate needs active.',
    );
  });
});
