import type { PersonnelData } from '../../../contracts/operations/hr/types.js';
import { defineStateMachine } from '../core/state-machine.js';
import { PERSONNEL } from './references.js';

// The state machines of HR, one table each (core/state-machine.ts).

type Status = PersonnelData['status'];

/** The seed's Personnel rows of States and transitions. */
export const personnelStates = defineStateMachine<
  Status,
  'arriveOnWatch' | 'leaveWatch' | 'goOnVacation' | 'returnFromVacation' | 'terminate',
  'transfer'
>({
  entity: 'Personnel',
  table: PERSONNEL,
  column: 'status',
  transitions: {
    arriveOnWatch: { from: ['active'], to: 'onWatch' },
    leaveWatch: { from: ['onWatch'], to: 'active' },
    goOnVacation: { from: ['active'], to: 'onVacation' },
    returnFromVacation: { from: ['onVacation'], to: 'active' },
    terminate: { from: ['active', 'onWatch', 'onVacation'], to: 'terminated' },
  },
  requires: { transfer: ['active', 'onWatch', 'onVacation'] },
});
