import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hrCreateBrigade } from '../../../../contracts/operations/hr/brigades.contract.js';
import {
  hrArriveOnWatch,
  hrGoOnVacation,
  hrHirePersonnel,
  hrLeaveWatch,
  hrReturnFromVacation,
  hrTerminatePersonnel,
} from '../../../../contracts/operations/hr/personnel.contract.js';
import { BrigadesService } from '../../../../subgraphs/operations/hr/brigades.service.js';
import { PersonnelStatusService } from '../../../../subgraphs/operations/hr/personnel-status.service.js';
import { PersonnelService } from '../../../../subgraphs/operations/hr/personnel.service.js';
import { OperationsServices, outcome } from '../../../support/operations-services.js';

/** Personnel below HTTP: hiring bounds and the status machine (watch, vacation, termination). */

let ops: OperationsServices;
const status = () => ops.get(PersonnelStatusService);
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const hire = (body: Record<string, unknown>) =>
  ops.run(
    'Admin',
    hrHirePersonnel,
    { fullName: 'Иванов Сергей', tabNumber: 'T-1', positionId: ops.positions.get('DRILLER'), hiredAt: '2024-01-15', ...body },
    (input, em, caller) => ops.get(PersonnelService).hire(em, caller, input),
  );
const arrive = (id: string) =>
  ops.run('Admin', hrArriveOnWatch, { id }, (input, em) => status().arriveOnWatch(em, input.id, input.arrivalDate));
const leave = (id: string) => ops.run('Admin', hrLeaveWatch, { id }, (input, em) => status().leaveWatch(em, input.id));
const vacation = (id: string) =>
  ops.run('Admin', hrGoOnVacation, { id, expectedReturnDate: isoDay(14) }, (input, em) =>
    status().goOnVacation(em, input.id, input.expectedReturnDate),
  );
const back = (id: string) => ops.run('Admin', hrReturnFromVacation, { id }, (input, em) => status().returnFromVacation(em, input.id));
const terminate = (id: string, body: Record<string, unknown> = {}) =>
  ops.run('Admin', hrTerminatePersonnel, { id, reason: 'По собственному желанию', ...body }, (input, em) => status().terminate(em, input));

beforeAll(async () => {
  ops = await OperationsServices.start();
}, 120_000);
afterAll(async () => {
  await ops?.stop();
});

describe('hiring', () => {
  it('refuses a hiring date in the future or before 1990 (VALIDATION_FAILED on hiredAt)', async () => {
    expect(await outcome(hire({ tabNumber: 'F-1', hiredAt: isoDay(1) }))).toBe('VALIDATION_FAILED:hiredAt');
    expect(await outcome(hire({ tabNumber: 'F-2', hiredAt: '1989-12-31' }))).toBe('VALIDATION_FAILED:hiredAt');
    expect(await outcome(hire({ tabNumber: 'F-3', hiredAt: isoDay(0) }))).toBe('ok');
  });

  it('refuses a personnel number already taken in the organization (HR_TAB_NUMBER_TAKEN)', async () => {
    await hire({ tabNumber: 'DUP-1' });
    expect(await outcome(hire({ tabNumber: 'DUP-1' }))).toBe('HR_TAB_NUMBER_TAKEN');
  });

  it('refuses a position that is not in the organization’s book (HR_REFERENCE_NOT_FOUND)', async () => {
    expect(await outcome(hire({ tabNumber: 'P-1', positionId: ops.north }))).toBe('HR_REFERENCE_NOT_FOUND');
  });
});

describe('status transitions', () => {
  it('goes on watch and back from active, and refuses leaving a watch not begun (STATE_CONFLICT)', async () => {
    const person = await ops.employee();
    expect(await outcome(leave(person.id))).toBe('STATE_CONFLICT');
    expect((await arrive(person.id)).status).toBe('onWatch');
    expect(await outcome(arrive(person.id))).toBe('STATE_CONFLICT');
    expect((await leave(person.id)).status).toBe('active');
  });

  it('goes on vacation only from active, not from a watch (STATE_CONFLICT), and returns to active', async () => {
    const person = await ops.employee();
    await arrive(person.id);
    expect(await outcome(vacation(person.id))).toBe('STATE_CONFLICT');
    await leave(person.id);
    expect((await vacation(person.id)).status).toBe('onVacation');
    expect((await back(person.id)).status).toBe('active');
  });

  it('refuses a termination dated before the hiring date (HR_DATE_ORDER)', async () => {
    const person = await ops.employee({ hiredAt: '2024-01-15' });
    expect(await outcome(terminate(person.id, { terminatedAt: '2024-01-14' }))).toBe('HR_DATE_ORDER');
    expect((await terminate(person.id, { terminatedAt: '2024-01-15' })).status).toBe('terminated');
  });

  it('leaves a terminated employee terminated: no watch, vacation or second termination (STATE_CONFLICT)', async () => {
    const person = await ops.employee();
    await terminate(person.id);
    expect(await outcome(arrive(person.id))).toBe('STATE_CONFLICT');
    expect(await outcome(vacation(person.id))).toBe('STATE_CONFLICT');
    expect(await outcome(terminate(person.id))).toBe('STATE_CONFLICT');
  });

  it('refuses to terminate the lead of an active brigade (HR_OPEN_ASSIGNMENTS) unless forced', async () => {
    const lead = await ops.employee({ position: 'FOREMAN' });
    await ops.run(
      'Foreman',
      hrCreateBrigade,
      { name: 'Буровая бригада', objectId: ops.north, workType: 'drilling', brigadierId: lead.id },
      (input, em, caller) => ops.get(BrigadesService).create(em, caller, input),
    );
    expect(await outcome(terminate(lead.id))).toBe('HR_OPEN_ASSIGNMENTS');
    expect((await terminate(lead.id, { force: true })).status).toBe('terminated');
  });
});
