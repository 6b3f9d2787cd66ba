import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Lines of stock documents: written from the request's JSON in one statement (numbers
 * read by PostgreSQL as `numeric`, never through a float), read back for a page of documents at once.
 */

export interface LineTable {
  /** Table name without schema, e.g. `tmc_transfer_line`. */
  readonly table: string;
  /** Column naming the document, e.g. `tmc_transfer_id`. */
  readonly parent: string;
}

export interface QuantityLine {
  readonly itemId: string;
  readonly quantity: number;
}

/** Inserts `itemId` and `quantity` of each line (plus `extra` columns computed from `line`) in order. */
export async function insertLines(
  em: EntityManager,
  lines: LineTable,
  documentId: string,
  items: readonly QuantityLine[],
  extra: Readonly<Record<string, string>> = {},
): Promise<Array<Record<string, unknown>>> {
  const columns = Object.keys(extra);
  // raw SQL: bulk insert of every line in one statement (numbered in order).
  return em.execute<Array<Record<string, unknown>>>(
    `insert into "operations"."${lines.table}" ("${lines.parent}", "line_no", "item_id", "quantity"${columns.map((column) => `, "${column}"`).join('')})
     select ?, l."ord", (l."line" ->> 'itemId')::uuid, (l."line" ->> 'quantity')::numeric${columns.map((column) => `, ${extra[column]}`).join('')}
     from jsonb_array_elements(?::jsonb) with ordinality as l("line", "ord")
     returning *`,
    [documentId, JSON.stringify(items)],
  );
}

/** Lines of the given documents, by document id, in line order. */
export async function linesOf(
  em: EntityManager,
  lines: LineTable,
  documentIds: readonly string[],
): Promise<Map<string, Array<Record<string, unknown>>>> {
  const byDocument = new Map<string, Array<Record<string, unknown>>>(documentIds.map((id) => [id, []]));
  if (documentIds.length === 0) return byDocument;
  // raw SQL: one reader for the five line tables, named by the caller.
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select * from "operations"."${lines.table}" where "${lines.parent}" = any(?::uuid[]) order by "${lines.parent}", "line_no"`,
    [`{${documentIds.join(',')}}`],
  );
  for (const row of rows) byDocument.get(String(row[lines.parent]))?.push(row);
  return byDocument;
}

/** Lines sorted by item, so documents touching the same balances lock them in one order. */
export const byItem = <T extends { readonly itemId: string }>(lines: readonly T[]): T[] =>
  [...lines].sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0));
