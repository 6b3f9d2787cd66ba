import type { DemoOrganization } from './demo-organization.js';

/** An asset as the API answers it. */
export type AssetRecord = { id: string; status: string; inventoryNumber: string; [field: string]: unknown };

export interface AssetBuilderOptions {
  /** Inventory numbers are `<prefix>-<n>`, n counting up from `first` (100 unless given: the seed wants 3 to 5 digits). */
  readonly prefix: string;
  readonly first?: number;
  /** The asset class the builder creates on first use. */
  readonly assetClass?: { readonly code: string; readonly name: string };
  /** Fields every asset gets unless the call overrides them. */
  readonly defaults?: Readonly<Record<string, unknown>>;
}

/**
 * Assets for tests, created by the demo Engineer: one asset class per builder (created on first
 * use) and assets with inventory numbers unique in the organization. A refused creation throws
 * with the answer, so a test reads as what it is about.
 */
export class AssetBuilder {
  private next: number;
  private classId?: Promise<string>;

  constructor(
    private readonly org: Pick<DemoOrganization, 'act' | 'north'>,
    private readonly options: AssetBuilderOptions,
  ) {
    this.next = options.first ?? 100;
  }

  /** The builder's asset class, created once. */
  assetClassId(): Promise<string> {
    this.classId ??= (async () => {
      const { code, name } = this.options.assetClass ?? { code: this.options.prefix, name: `${this.options.prefix} class` };
      const response = await this.org.act('Engineer', 'POST', '/api/v1/eam/asset-classes', { code, name });
      if (response.status !== 201) throw new Error(`asset class: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.id as string;
    })();
    return this.classId;
  }

  /** The next inventory number of the builder. */
  inventoryNumber(): string {
    return `${this.options.prefix}-${this.next++}`;
  }

  /** An operational asset at `objectId` (the demo NORTH unless given). */
  async create(objectId = this.org.north, overrides: Readonly<Record<string, unknown>> = {}): Promise<AssetRecord> {
    const response = await this.org.act('Engineer', 'POST', '/api/v1/eam/assets', {
      inventoryNumber: this.inventoryNumber(),
      name: 'Буровая установка',
      assetClassId: await this.assetClassId(),
      currentObjectId: objectId,
      commissionedAt: '2025-01-01',
      passport: {},
      ...this.options.defaults,
      ...overrides,
    });
    if (response.status !== 201) throw new Error(`asset: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as AssetRecord;
  }
}

/** Drilling rigs of class DRILL, as the EAM tests create them (`AS-<first>`, `AS-<first + 1>`…). */
export const drillRigs = (first: number): AssetBuilderOptions => ({
  prefix: 'AS',
  first,
  assetClass: { code: 'DRILL', name: 'Буровые установки' },
  defaults: { commissionedAt: '2024-05-01', passport: { model: 'DM45', year: 2024 } },
});
