import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { eamCreateAssetClass, eamListAssetClasses } from '../../../contracts/operations/eam/asset-classes.contract.js';
import { AssetClass, type AssetClassData } from '../../../contracts/operations/eam/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import type { TrashEntity } from '../core/trash.service.js';
import { OperationsError } from '../operations.errors.js';
import { AssetClassEntity } from './asset-class.entity.js';
import { AssetEntity } from './asset.entity.js';
import { EamError } from './eam.errors.js';

const TABLE = '"operations"."asset_class"';
const toAssetClass = recordMapper<AssetClassData>(AssetClass);

/** Asset classes go to the trash and come back from it; the code is re-checked on restore. */
export const assetClassTrash: TrashEntity = { slug: 'asset-classes', entity: 'AssetClass', table: TABLE };

/** Asset classes: the kinds of asset an organization keeps (their code ties them to maintenance norms). */
export class AssetClassService {
  async list(em: EntityManager, input: ContractInput<typeof eamListAssetClasses>) {
    const where = [`"deleted_at" is null`, ...(input.activeOnly ? [`"active"`] : [])];
    return cursorList(em, { table: TABLE, where, orderBy: 'code' }, input, toAssetClass);
  }

  async create(em: EntityManager, caller: Principal, input: ContractInput<typeof eamCreateAssetClass>): Promise<AssetClassData> {
    // raw SQL: `on conflict do nothing` answers a taken code without aborting the transaction.
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${TABLE} ("organization_id", "code", "name", "description") values (?, ?, ?, ?)
       on conflict ("organization_id", "code") where "deleted_at" is null do nothing returning *`,
      [caller.organizationId, input.code, input.name, input.description],
    );
    if (!row) throw EamError.classCodeTaken(input.code);
    return toAssetClass(row);
  }

  async softDelete(em: EntityManager, id: string): Promise<{ id: string; deletedAt: string }> {
    const assetClass = await em.findOne(AssetClassEntity, { id, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!assetClass) throw OperationsError.notFound('Asset class');
    if ((await em.count(AssetEntity, { assetClassId: id })) > 0) throw EamError.classInUse();
    assetClass.deletedAt = new Date();
    await em.flush();
    return { id, deletedAt: assetClass.deletedAt.toISOString() };
  }
}
