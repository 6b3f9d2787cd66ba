import { defineStateMachine, defineStateRules } from '../core/state-machine.js';

/** The states and transitions of suppliers and stock documents (seed 002, States and transitions; docs/adr/0012). */

/**
 * A supplier's stage: `submitted` is a draft sent for activation (the API's `status`, a
 * generated column, shows it as `draft` with `submittedAt`).
 */
export const supplierMachine = defineStateMachine({
  entity: 'Supplier',
  table: '"operations"."supplier"',
  column: 'stage',
  transitions: {
    submit: { from: ['draft'], to: 'submitted' },
    activate: { from: ['submitted'], to: 'active' },
    suspend: { from: ['active'], to: 'suspended' },
    unblock: { from: ['suspended'], to: 'active' },
    archive: { from: ['draft', 'submitted'], to: 'archived' },
    archiveApproved: { from: ['draft', 'submitted', 'active', 'suspended'], to: 'archived' },
  },
  /** Named by the API's status (a submitted supplier reads as a draft). */
  requires: { 'changing its details': ['draft', 'active', 'suspended'] },
});

/** A TMC item's `active` flag, read as a state: deactivation is the one way out. */
export const tmcItemRules = defineStateRules<'active' | 'inactive', 'deactivate'>({
  entity: 'TMC item',
  transitions: { deactivate: { from: ['active'], to: 'inactive' } },
});

export const transferMachine = defineStateMachine({
  entity: 'TMC transfer',
  table: '"operations"."tmc_transfer"',
  column: 'status',
  transitions: { confirm: { from: ['issued'], to: 'confirmed' } },
});

export const requestMachine = defineStateMachine({
  entity: 'TMC request',
  table: '"operations"."tmc_request"',
  column: 'status',
  transitions: {
    submit: { from: ['draft'], to: 'sent' },
    approve: { from: ['sent'], to: 'approved' },
    reject: { from: ['sent'], to: 'rejected' },
    return: { from: ['sent'], to: 'draft' },
    start: { from: ['approved'], to: 'in_progress' },
    close: { from: ['in_progress'], to: 'fulfilled' },
  },
});

export const inventoryMachine = defineStateMachine({
  entity: 'Inventory',
  table: '"operations"."tmc_inventory"',
  column: 'status',
  transitions: { complete: { from: ['in_progress'], to: 'completed' } },
});
