import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationsReferenceKind } from '../../../contracts/operations/references.js';
import type { ReferenceValue } from '../../../contracts/references.js';
import type { ReferenceCheck } from '../../shared/contracts/implementation.js';
import { OperationsError } from '../operations.errors.js';

/**
 * Where each kind of record a body names lives, and how a refusal names it. Tenant
 * tables are read through row-level security (another organization's rows, and for
 * object-scoped roles another object's, are not there); the users table is a platform
 * table, so its rows are filtered by the organization explicitly.
 */
interface ReferenceTable {
  readonly table: string;
  /** As in "Asset not found.". */
  readonly entity: string;
  /** Set for platform tables, which have no tenant policy. */
  readonly organizationColumn?: string;
}

export const REFERENCE_TABLES: { readonly [K in OperationsReferenceKind]: ReferenceTable } = {
  'core.production-object': { table: 'production_object', entity: 'Production object' },
  'core.tmc-category': { table: 'tmc_category', entity: 'TMC category' },
  'core.downtime-category': { table: 'downtime_category', entity: 'Downtime category' },
  'core.import-batch': { table: 'import_batch', entity: 'Import batch' },
  'iam.user': { table: 'app_user', entity: 'User', organizationColumn: 'organization_id' },
  'eam.asset': { table: 'asset', entity: 'Asset' },
  'eam.asset-class': { table: 'asset_class', entity: 'Asset class' },
  'hr.personnel': { table: 'personnel', entity: 'Personnel' },
  'hr.position': { table: 'position', entity: 'Position' },
  'scm.fuel-tank': { table: 'fuel_tank', entity: 'Fuel tank' },
  'scm.fuel-supply': { table: 'fuel_supply', entity: 'Fuel supply' },
  'scm.fuel-supply-request': { table: 'fuel_supply_request', entity: 'Fuel supply request' },
  'scm.supplier': { table: 'supplier', entity: 'Supplier' },
  'scm.warehouse': { table: 'warehouse', entity: 'Warehouse' },
  'scm.tmc-item': { table: 'tmc_item', entity: 'TMC item' },
  'scm.tmc-request': { table: 'tmc_request', entity: 'TMC request' },
  'scm.tmc-receipt': { table: 'tmc_receipt', entity: 'TMC receipt' },
  'scm.tmc-inventory-line': { table: 'tmc_inventory_line', entity: 'Inventory line' },
  'prd.asset-usage': { table: 'shift_asset_usage', entity: 'Asset usage' },
};

const isKind = (kind: string): kind is OperationsReferenceKind => Object.hasOwn(REFERENCE_TABLES, kind);

/** The ids of one kind the caller may see. */
async function visible(em: EntityManager, kind: OperationsReferenceKind, ids: readonly string[]): Promise<Set<string>> {
  const { table, organizationColumn } = REFERENCE_TABLES[kind];
  const tenant = organizationColumn ? ` and "${organizationColumn}" = nullif(current_setting('app.organization_id', true), '')::uuid` : '';
  // raw SQL: checks ids against whichever table a reference names, in one round trip
  const rows = await em.execute<Array<{ id: string }>>(
    `select "id"::text as "id" from "operations"."${table}" where "id" = any(?::uuid[])${tenant}`,
    [`{${ids.join(',')}}`],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * The operations subgraph's check of declared references, inside the call's tenant
 * transaction. A kind read from the input (a document's `entityType`) that names no
 * table here — a module this release does not hold — has no rows to leak and is not checked.
 */
export const tenantReferences: ReferenceCheck = {
  async unseen(values: readonly ReferenceValue[], call) {
    const byKind = new Map<OperationsReferenceKind, ReferenceValue[]>();
    for (const value of values) {
      if (!isKind(value.kind)) continue;
      byKind.set(value.kind, [...(byKind.get(value.kind) ?? []), value]);
    }
    const unseen = new Set<ReferenceValue>();
    for (const [kind, named] of byKind) {
      const seen = await visible(call.ctx.em as EntityManager, kind, [...new Set(named.map((value) => value.id.toLowerCase()))]);
      for (const value of named) if (!seen.has(value.id.toLowerCase())) unseen.add(value);
    }
    const first = values.find((value) => unseen.has(value));
    return first && OperationsError.referenceNotFound(REFERENCE_TABLES[first.kind as OperationsReferenceKind].entity, first.param);
  },
  dangling: (error) => (error as { code?: string }).code === '23503',
};
