import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

/**
 * Suppliers and stock (docs/adr/0012). Every table is a tenant table whose
 * `organization_id` defaults to the transaction's organization; warehouse-bound rows carry
 * the warehouse's production object for the object-scope policy. Quantities are
 * `numeric(20,3)`, prices `numeric(20,2)`, the weighted average `numeric(24,4)`.
 */

const ORGANIZATION = `"organization_id" uuid not null default nullif(current_setting('app.organization_id', true), '')::uuid references "${SCHEMA}"."organization" ("id")`;
const OBJECTS = `coalesce(nullif(current_setting('app.object_ids', true), ''), '*')`;
const STAMPS = `"created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now()`;
const QUANTITY = 'numeric(20,3)';

const table = (name: string, columns: string) =>
  `create table "${SCHEMA}"."${name}" ("id" uuid primary key default gen_random_uuid(), ${ORGANIZATION}, ${columns}, ${STAMPS})`;
const ref = (target: string) => `uuid not null references "${SCHEMA}"."${target}" ("id")`;
const index = (name: string, on: string, unique = false) => `create ${unique ? 'unique ' : ''}index "${name}" on "${SCHEMA}".${on}`;

const suppliers = [
  table(
    'supplier',
    `"bin" char(12) null, "iin" char(12) null, "legal_name" varchar(500) not null, "short_name" varchar(200) null,
     "legal_address" varchar(1000) null, "legal_form_code" varchar(16) null, "country_code" char(2) not null default 'KZ',
     "stage" varchar(16) not null default 'draft' check ("stage" in ('draft', 'submitted', 'active', 'suspended', 'archived')),
     "status" varchar(16) generated always as (case when "stage" = 'submitted' then 'draft' else "stage" end) stored,
     "categories" text[] not null default '{}', "suspended_reason" varchar(32) null, "suspended_reason_text" varchar(1000) null,
     "unblock_reason" varchar(1000) null, "archived_reason" varchar(1000) null,
     "submitted_at" timestamptz null, "submitted_by" uuid null, "activated_at" timestamptz null, "activated_by" uuid null,
     "suspended_at" timestamptz null, "unblocked_at" timestamptz null, "archived_at" timestamptz null, "archived_co_approved_by" uuid null,
     "created_by" uuid not null, check ("bin" is not null or "iin" is not null)`,
  ),
  index('supplier_bin_unique', `"supplier" ("organization_id", "bin") where "bin" is not null and "stage" <> 'archived'`, true),
  index('supplier_iin_unique', `"supplier" ("organization_id", "iin") where "iin" is not null and "stage" <> 'archived'`, true),
  index('supplier_name_index', `"supplier" ("organization_id", "legal_name", "id")`),
  ...tenantTable('supplier', { entity: 'Supplier' }),
  table(
    'supplier_contact',
    `"supplier_id" ${ref('supplier')}, "full_name" varchar(200) not null, "position" varchar(200) null, "phone" varchar(50) null,
     "email" varchar(254) null, "is_primary" boolean not null default false`,
  ),
  // The database, not the service, keeps a supplier to one primary contact and one primary account.
  index('supplier_contact_primary_unique', `"supplier_contact" ("supplier_id") where "is_primary"`, true),
  index('supplier_contact_supplier_index', `"supplier_contact" ("supplier_id", "id")`),
  ...tenantTable('supplier_contact', { entity: 'SupplierContact' }),
  table(
    'supplier_bank_account',
    `"supplier_id" ${ref('supplier')}, "bank_name" varchar(200) not null, "bik" varchar(8) null, "iban" char(20) not null,
     "bk" varchar(2) null, "currency" char(3) not null, "is_primary" boolean not null default false, "change_reason" varchar(1000) null`,
  ),
  index('supplier_bank_account_primary_unique', `"supplier_bank_account" ("supplier_id") where "is_primary"`, true),
  index('supplier_bank_account_supplier_index', `"supplier_bank_account" ("supplier_id", "id")`),
  ...tenantTable('supplier_bank_account', { entity: 'SupplierBankAccount' }),
];

const stock = [
  table(
    'warehouse',
    `"object_id" ${ref('production_object')}, "code" varchar(64) not null, "name" varchar(200) not null, "active" boolean not null default true`,
  ),
  index('warehouse_code_unique', `"warehouse" ("organization_id", "code")`, true),
  ...tenantTable('warehouse', { entity: 'Warehouse', objectColumn: 'object_id' }),
  table(
    'tmc_item',
    `"nomenclature_code" varchar(64) not null, "name" varchar(500) not null,
     "category" varchar(16) not null check ("category" in ('drill_tool', 'spare', 'consumable', 'other')),
     "unit" varchar(8) not null check ("unit" in ('шт', 'кг', 'л', 'м', 'компл')), "asset_class_id" uuid null,
     "last_purchase_price" numeric(20,2) null, "weighted_avg_price" numeric(24,4) null, "active" boolean not null default true`,
  ),
  index('tmc_item_code_unique', `"tmc_item" ("organization_id", "nomenclature_code")`, true),
  ...tenantTable('tmc_item', { entity: 'TmcItem' }),
  table(
    'stock_balance',
    `"warehouse_id" ${ref('warehouse')}, "object_id" uuid not null, "item_id" ${ref('tmc_item')},
     "quantity" ${QUANTITY} not null default 0 check ("quantity" >= 0), "min_quantity" ${QUANTITY} null check ("min_quantity" >= 0)`,
  ),
  index('stock_balance_unique', `"stock_balance" ("warehouse_id", "item_id")`, true),
  index('stock_balance_item_index', `"stock_balance" ("item_id")`),
  ...tenantTable('stock_balance', { entity: 'StockBalance', objectColumn: 'object_id' }),
  table(
    'tmc_movement',
    `"warehouse_id" ${ref('warehouse')}, "object_id" uuid not null, "item_id" ${ref('tmc_item')},
     "kind" varchar(24) not null check ("kind" in ('receipt', 'write_off', 'transfer_out', 'transfer_in', 'inventory_adjustment', 'reversal')),
     "quantity" ${QUANTITY} not null check ("quantity" <> 0), "price" numeric(24,4) null,
     "document_type" varchar(24) not null, "document_id" uuid null, "source_key" varchar(200) null,
     "reverses_id" uuid null unique references "${SCHEMA}"."tmc_movement" ("id"), "occurred_at" timestamptz not null default now(),
     "actor_id" uuid null`,
  ),
  index('tmc_movement_source_unique', `"tmc_movement" ("organization_id", "source_key") where "source_key" is not null`, true),
  index('tmc_movement_document_index', `"tmc_movement" ("document_id")`),
  ...tenantTable('tmc_movement', { entity: 'TmcMovement', objectColumn: 'object_id' }),
];

const line = (name: string, parent: string, columns: string) => [
  table(name, `"${parent}_id" ${ref(parent)}, "line_no" integer not null, "item_id" ${ref('tmc_item')}, ${columns}`),
  index(`${name}_parent_index`, `"${name}" ("${parent}_id", "line_no")`),
];

const documents = [
  table(
    'tmc_receipt',
    `"warehouse_id" ${ref('warehouse')}, "object_id" uuid not null, "source" varchar(16) not null check ("source" in ('supplier', 'transfer', 'return')),
     "supplier_id" uuid null references "${SCHEMA}"."supplier" ("id"), "inbound_date" date not null, "document_number" varchar(100) not null,
     "document_reference" varchar(200) null, "request_id" uuid null, "received_by_id" uuid not null,
     "total_amount" numeric not null default 0, "line_count" integer not null, "created_by" uuid not null`,
  ),
  ...tenantTable('tmc_receipt', { entity: 'TmcReceipt', objectColumn: 'object_id' }),
  ...line('tmc_receipt_line', 'tmc_receipt', `"quantity" ${QUANTITY} not null, "price" numeric(20,2) not null, "amount" numeric not null`),
  ...tenantTable('tmc_receipt_line', { entity: 'TmcReceiptLine' }),
  table(
    'tmc_write_off',
    `"warehouse_id" ${ref('warehouse')}, "object_id" uuid not null, "asset_id" uuid null, "target_object_id" ${ref('production_object')},
     "reason" varchar(16) not null check ("reason" in ('planned_to', 'repair', 'production', 'loss')), "document_reference" varchar(200) null,
     "occurred_at" timestamptz not null, "line_count" integer not null, "created_by" uuid not null`,
  ),
  ...tenantTable('tmc_write_off', { entity: 'TmcWriteOff', objectColumn: 'object_id' }),
  ...line('tmc_write_off_line', 'tmc_write_off', `"quantity" ${QUANTITY} not null, "price" numeric(24,4) null`),
  ...tenantTable('tmc_write_off_line', { entity: 'TmcWriteOffLine' }),
  table(
    'tmc_transfer',
    `"from_warehouse_id" ${ref('warehouse')}, "to_warehouse_id" ${ref('warehouse')}, "from_object_id" uuid not null, "to_object_id" uuid not null,
     "status" varchar(16) not null default 'issued' check ("status" in ('issued', 'confirmed')), "transfer_date" date not null,
     "document_number" varchar(100) not null, "issued_by_id" uuid not null, "issued_at" timestamptz not null default now(),
     "confirmed_by_id" uuid null, "confirmed_at" timestamptz null, "note" varchar(500) null, check ("from_warehouse_id" <> "to_warehouse_id")`,
  ),
  ...tenantTable('tmc_transfer', { entity: 'TmcTransfer' }),
  // A transfer is seen from either end: object-scoped roles see it when one of its warehouses is theirs.
  `create policy "tmc_transfer_object_scope" on "${SCHEMA}"."tmc_transfer" as restrictive using (${OBJECTS} = '*'
     or "from_object_id" = any(string_to_array(nullif(${OBJECTS}, '*'), ',')::uuid[])
     or "to_object_id" = any(string_to_array(nullif(${OBJECTS}, '*'), ',')::uuid[]))`,
  ...line('tmc_transfer_line', 'tmc_transfer', `"quantity" ${QUANTITY} not null`),
  ...tenantTable('tmc_transfer_line', { entity: 'TmcTransferLine' }),
  table(
    'tmc_request',
    `"warehouse_id" ${ref('warehouse')}, "object_id" uuid not null, "created_by_id" uuid not null, "justification" varchar(2000) not null,
     "status" varchar(16) not null default 'draft' check ("status" in ('draft', 'sent', 'approved', 'rejected', 'in_progress', 'fulfilled')),
     "submitted_at" timestamptz null, "approved_by_id" uuid null, "approved_at" timestamptz null, "rejected_by_id" uuid null,
     "rejected_at" timestamptz null, "reject_reason" varchar(500) null, "returned_by_id" uuid null, "return_comment" varchar(500) null,
     "started_at" timestamptz null, "fulfilled_at" timestamptz null, "linked_inbound_ids" uuid[] not null default '{}'`,
  ),
  index('tmc_request_list_index', `"tmc_request" ("organization_id", "created_at" desc, "id" desc)`),
  ...tenantTable('tmc_request', { entity: 'TmcRequest', objectColumn: 'object_id' }),
  ...line('tmc_request_line', 'tmc_request', `"quantity" ${QUANTITY} not null`),
  ...tenantTable('tmc_request_line', { entity: 'TmcRequestLine' }),
  table(
    'tmc_inventory',
    `"warehouse_id" ${ref('warehouse')}, "object_id" uuid not null, "inventory_date" date not null, "responsible_id" uuid not null,
     "status" varchar(16) not null default 'in_progress' check ("status" in ('in_progress', 'completed')),
     "completed_at" timestamptz null, "document_reference" varchar(200) null`,
  ),
  index('tmc_inventory_open_unique', `"tmc_inventory" ("warehouse_id") where "status" = 'in_progress'`, true),
  ...tenantTable('tmc_inventory', { entity: 'TmcInventory', objectColumn: 'object_id' }),
  ...line(
    'tmc_inventory_line',
    'tmc_inventory',
    `"expected_quantity" ${QUANTITY} not null, "actual_quantity" ${QUANTITY} null, "variance" ${QUANTITY} null,
     "note" varchar(500) null, "adjustment_movement_id" uuid null references "${SCHEMA}"."tmc_movement" ("id")`,
  ),
  ...tenantTable('tmc_inventory_line', { entity: 'TmcInventoryLine' }),
];

export class Migration20261123040000_scm extends Migration {
  static readonly migrationName = 'Migration20261123040000_scm';

  override up(): void {
    for (const statement of [...suppliers, ...stock, ...documents]) this.addSql(statement);
  }
}
