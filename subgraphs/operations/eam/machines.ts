import { defineStateMachine } from '../core/state-machine.js';

/** The asset and maintenance state machines (seed 002, States and transitions; movement actions in docs/adr/0011). */

export type AssetState = 'operational' | 'maintenance' | 'conserved' | 'decommissioned';
export type MaintenanceState = 'scheduled' | 'inProgress' | 'completed' | 'cancelled';

export const assetMachine = defineStateMachine<
  AssetState,
  'move' | 'toMaintenance' | 'fromMaintenance' | 'conserve' | 'returnFromConservation' | 'decommission',
  'schedule maintenance' | 'start maintenance' | 'sendToMaintenance' | 'toRepair' | 'fromRepair'
>({
  entity: 'Asset',
  table: '"operations"."asset"',
  column: 'status',
  transitions: {
    move: { from: ['operational'], to: 'operational' },
    /** Send to maintenance, start a maintenance, send to repair. */
    toMaintenance: { from: ['operational'], to: 'maintenance' },
    /** Complete or cancel the maintenance in progress, return from repair. */
    fromMaintenance: { from: ['maintenance'], to: 'operational' },
    conserve: { from: ['operational'], to: 'conserved' },
    returnFromConservation: { from: ['conserved'], to: 'operational' },
    decommission: { from: ['operational', 'maintenance', 'conserved'], to: 'decommissioned' },
  },
  /**
   * Checked under the asset's lock before a maintenance record is opened or closed: the
   * record's own change comes first, the asset's `toMaintenance`/`fromMaintenance` after it.
   */
  requires: {
    'schedule maintenance': ['operational', 'maintenance', 'conserved'],
    'start maintenance': ['operational'],
    sendToMaintenance: ['operational'],
    toRepair: ['operational'],
    fromRepair: ['maintenance'],
  },
});

export const maintenanceMachine = defineStateMachine<MaintenanceState, 'start' | 'complete' | 'cancel'>({
  entity: 'Maintenance record',
  table: '"operations"."maintenance_record"',
  column: 'status',
  transitions: {
    start: { from: ['scheduled'], to: 'inProgress' },
    complete: { from: ['inProgress'], to: 'completed' },
    cancel: { from: ['scheduled', 'inProgress'], to: 'cancelled' },
  },
});
