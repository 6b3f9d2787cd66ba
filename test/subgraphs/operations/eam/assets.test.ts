import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eamConserveAsset,
  eamGetAsset,
  eamMoveAsset,
  eamReturnAssetFromConservation,
  eamReturnAssetFromRepair,
  eamSendAssetToMaintenance,
} from '../../../../contracts/operations/eam/assets.contract.js';
import {
  eamCancelMaintenance,
  eamCompleteMaintenance,
  eamScheduleMaintenance,
  eamStartMaintenance,
} from '../../../../contracts/operations/eam/maintenance.contract.js';
import { AssetService } from '../../../../subgraphs/operations/eam/asset.service.js';
import { MaintenanceService } from '../../../../subgraphs/operations/eam/maintenance.service.js';
import { OperationsServices, outcome } from '../../../support/operations-services.js';

/** Assets below HTTP: movements between objects and the maintenance state machine. */

let ops: OperationsServices;
const assets = () => ops.get(AssetService);
const maintenance = () => ops.get(MaintenanceService);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const move = (id: string, toObjectId: string) =>
  ops.run('Engineer', eamMoveAsset, { id, toObjectId, reason: 'Перевод' }, (input, em, caller) =>
    assets().move(em, caller, input.id, input.toObjectId, input.reason),
  );
const conserve = (id: string) =>
  ops.run('Engineer', eamConserveAsset, { id, reason: 'Сезон' }, (input, em, caller) =>
    assets().conserve(em, caller, input.id, input.reason),
  );
const unconserve = (id: string) =>
  ops.run('Engineer', eamReturnAssetFromConservation, { id, reason: 'Сезон' }, (input, em, caller) =>
    assets().returnFromConservation(em, caller, input.id, input.reason),
  );
const schedule = (assetId: string, scheduledAt = inAnHour()) =>
  ops.run('Engineer', eamScheduleMaintenance, { assetId, scheduledAt, reason: 'ТО-250' }, (input, em, caller) =>
    maintenance().schedule(em, caller, input),
  );
const start = (id: string) =>
  ops.run('Mechanic', eamStartMaintenance, { id }, (input, em, caller) => maintenance().start(em, caller, input.id));
const complete = (id: string) =>
  ops.run('Mechanic', eamCompleteMaintenance, { id }, (input, em, caller) => maintenance().complete(em, caller, input.id, input.notes));
const cancel = (id: string) =>
  ops.run('Engineer', eamCancelMaintenance, { id, reason: 'Перенос' }, (input, em, caller) =>
    maintenance().cancel(em, caller, input.id, input.reason),
  );
const status = async (id: string) => (await ops.as('CEO', eamGetAsset, (em) => assets().get(em, id))).status;

beforeAll(async () => {
  ops = await OperationsServices.start();
}, 120_000);
afterAll(async () => {
  await ops?.stop();
});

describe('movements', () => {
  it('moves an operational asset to another object and journals the move from the old object to the new', async () => {
    const asset = await ops.asset(ops.north);
    expect((await move(asset.id, ops.south)).currentObjectId).toBe(ops.south);
    const journal = await ops.orm.em
      .fork()
      .execute<Array<{ from: string; to: string }>>(
        'select from_object_id as "from", to_object_id as "to" from operations.asset_movement where asset_id = ? and op = ?',
        [asset.id, 'transfer_audit'],
      );
    expect(journal).toEqual([{ from: ops.north, to: ops.south }]);
  });

  it('refuses a move to the object the asset is already at (ASSET_ALREADY_AT_OBJECT)', async () => {
    const asset = await ops.asset(ops.north);
    expect(await outcome(move(asset.id, ops.north))).toBe('ASSET_ALREADY_AT_OBJECT');
  });

  it('refuses to move a conserved asset (STATE_CONFLICT) until it returns from conservation', async () => {
    const asset = await ops.asset(ops.north);
    expect((await conserve(asset.id)).status).toBe('conserved');
    expect(await outcome(move(asset.id, ops.south))).toBe('STATE_CONFLICT');
    expect(await outcome(conserve(asset.id))).toBe('STATE_CONFLICT');
    await unconserve(asset.id);
    expect((await move(asset.id, ops.south)).currentObjectId).toBe(ops.south);
  });

  it('refuses to move an asset under maintenance (STATE_CONFLICT)', async () => {
    const asset = await ops.asset(ops.north);
    await ops.run('Engineer', eamSendAssetToMaintenance, { id: asset.id, reason: 'Течь' }, (input, em, caller) =>
      maintenance().openNow(em, caller, input.id, 'maintenance', input.reason),
    );
    expect(await outcome(move(asset.id, ops.south))).toBe('STATE_CONFLICT');
  });
});

describe('maintenance', () => {
  it('puts the asset under maintenance when a scheduled record starts and back in operation when it completes', async () => {
    const asset = await ops.asset();
    const record = await schedule(asset.id);
    expect(record.status).toBe('scheduled');
    expect(await status(asset.id)).toBe('operational');
    expect((await start(record.id)).status).toBe('inProgress');
    expect(await status(asset.id)).toBe('maintenance');
    expect((await complete(record.id)).status).toBe('completed');
    expect(await status(asset.id)).toBe('operational');
  });

  it('refuses to complete a record that has not started, or twice (STATE_CONFLICT)', async () => {
    const asset = await ops.asset();
    const record = await schedule(asset.id);
    expect(await outcome(complete(record.id))).toBe('STATE_CONFLICT');
    await start(record.id);
    await complete(record.id);
    expect(await outcome(complete(record.id))).toBe('STATE_CONFLICT');
  });

  it('releases the asset when maintenance in progress is cancelled, and never starts a cancelled record (STATE_CONFLICT)', async () => {
    const asset = await ops.asset();
    const record = await schedule(asset.id);
    await start(record.id);
    expect((await cancel(record.id)).status).toBe('cancelled');
    expect(await status(asset.id)).toBe('operational');
    expect(await outcome(start(record.id))).toBe('STATE_CONFLICT');
    expect(await outcome(cancel(record.id))).toBe('STATE_CONFLICT');
  });

  it('refuses maintenance scheduled in the past (VALIDATION_FAILED on scheduledAt)', async () => {
    const asset = await ops.asset();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    expect(await outcome(schedule(asset.id, yesterday))).toBe('VALIDATION_FAILED:scheduledAt');
  });

  it('refuses a return from repair while the asset is under planned maintenance (ASSET_NOT_IN_REPAIR)', async () => {
    const asset = await ops.asset();
    await start((await schedule(asset.id)).id);
    const back = ops.run('Mechanic', eamReturnAssetFromRepair, { id: asset.id, reason: 'Готово' }, (input, em, caller) =>
      maintenance().returnFromRepair(em, caller, input.id, input.reason),
    );
    expect(await outcome(back)).toBe('ASSET_NOT_IN_REPAIR');
    expect(await status(asset.id)).toBe('maintenance');
  });
});
