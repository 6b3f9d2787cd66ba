import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { hrTerminatePersonnel } from '../../../contracts/operations/hr/personnel.contract.js';
import { type PersonnelData, today } from '../../../contracts/operations/hr/types.js';
import { requireState, transition } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { HrError } from './hr.errors.js';
import type { OpenAssignmentCheck } from './open-assignments.js';
import { personnelRecord } from './personnel.service.js';
import { personnelStates } from './machines.js';
import { lockPersonnel } from './references.js';

/** Watches, vacations and termination, each one conditional update of the status. */
export class PersonnelStatusService {
  /** `checks`: every module's open-assignment checks (see open-assignments.ts). */
  constructor(private readonly checks: readonly OpenAssignmentCheck[]) {}

  async arriveOnWatch(em: EntityManager, id: string, arrivalDate?: string): Promise<PersonnelData> {
    return personnelRecord(await transition(em, personnelStates, 'arriveOnWatch', id, { set: { arrival_date: arrivalDate ?? today() } }));
  }

  async leaveWatch(em: EntityManager, id: string): Promise<PersonnelData> {
    return personnelRecord(await transition(em, personnelStates, 'leaveWatch', id));
  }

  async goOnVacation(em: EntityManager, id: string, expectedReturnDate: string): Promise<PersonnelData> {
    return personnelRecord(
      await transition(em, personnelStates, 'goOnVacation', id, { set: { expected_return_date: expectedReturnDate } }),
    );
  }

  async returnFromVacation(em: EntityManager, id: string): Promise<PersonnelData> {
    return personnelRecord(await transition(em, personnelStates, 'returnFromVacation', id, { setSql: { expected_return_date: 'null' } }));
  }

  /**
   * Refused while the employee has open assignments, unless `force`: then every check
   * closes its assignments in this transaction. The employee's row is locked first, so no
   * assignment can be added between the check and the termination.
   */
  async terminate(em: EntityManager, input: ContractInput<typeof hrTerminatePersonnel>): Promise<PersonnelData> {
    const person = await lockPersonnel(em, input.id);
    if (!person) throw OperationsError.notFound('Personnel');
    requireState(personnelStates, 'terminate', person.status);
    const terminatedAt = input.terminatedAt ?? today();
    if (terminatedAt < person.hiredAt)
      throw HrError.dateOrder('terminatedAt', `terminatedAt comes before the hiring date ${person.hiredAt}.`);
    const open: string[] = [];
    for (const check of this.checks) open.push(...(await check.find(em, input.id)));
    if (open.length > 0 && !input.force) throw HrError.openAssignments(open);
    for (const check of this.checks) await check.close(em, input.id, terminatedAt);
    const row = await transition(em, personnelStates, 'terminate', input.id, {
      set: { terminated_at: terminatedAt, termination_reason: input.reason },
    });
    return personnelRecord(row);
  }
}
