import type { ConnectorHarness } from './connector-harness.js';
import { eventually } from './connector-harness.js';
import type { TestShop } from './test-shop.js';

/** A sku map row as the tests read it. */
export interface WorldMapRow {
  supplier_sku: string;
  sku_id: string | null;
  state: string;
  snapshot: Record<string, unknown>;
}

/** A planned write as the tests read it. */
export interface WorldPlannedRow {
  source: string;
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

/**
 * Why: a world's tests compare what each shop's run left in the connector's own tables (sku map,
 * planned writes, media status, image map); these readers are the world's database side, kept
 * apart from its sandboxes and admin calls (`TwoShopWorld.tables`).
 */
export class WorldTables {
  constructor(private readonly harness: ConnectorHarness) {}

  private get q(): string {
    return `"${this.harness.schema}"`;
  }

  async mapRows(shop: TestShop, productId: string): Promise<WorldMapRow[]> {
    const { rows } = await this.harness.db.query<WorldMapRow>(
      `SELECT supplier_sku, sku_id, state, snapshot FROM ${this.q}.sku_map WHERE shop = $1 AND shopify_product_id = $2
        ORDER BY supplier_sku`,
      [shop.domain, productId],
    );
    return rows;
  }

  async mapRow(shop: TestShop, supplierSku: string): Promise<WorldMapRow | undefined> {
    const { rows } = await this.harness.db.query<WorldMapRow>(
      `SELECT supplier_sku, sku_id, state, snapshot FROM ${this.q}.sku_map WHERE shop = $1 AND supplier_sku = $2`,
      [shop.domain, supplierSku],
    );
    return rows[0];
  }

  /** Waits for a media run of the product that ended after `after` (epoch ms). */
  async mediaRun(
    shop: TestShop,
    productId: string,
    after: number,
  ): Promise<{ uploads: number; writes: number }> {
    return eventually(async () => {
      const { rows } = await this.harness.db.query<{ last_run_at: Date; uploads: number; writes: number }>(
        `SELECT last_run_at, uploads, writes FROM ${this.q}.media_product_status WHERE shop = $1 AND shopify_product_id = $2`,
        [shop.domain, productId],
      );
      return rows[0] !== undefined && rows[0].last_run_at.getTime() > after && rows[0];
    }, 30_000);
  }

  async planned(shop: TestShop, productId: string): Promise<WorldPlannedRow[]> {
    const { rows } = await this.harness.db.query<WorldPlannedRow>(
      `SELECT source, method, path, body FROM ${this.q}.planned_writes WHERE shop = $1 AND product_id = $2
        ORDER BY source, seq`,
      [shop.domain, productId],
    );
    return rows;
  }

  /** Shopify media id -> catalog fileId, from the shop's image map. */
  async fileIds(shop: TestShop): Promise<Map<string, string>> {
    const { rows } = await this.harness.db.query<{ shopify_media_id: string; file_id: string }>(
      `SELECT shopify_media_id, file_id FROM ${this.q}.media_image_map WHERE shop = $1`,
      [shop.domain],
    );
    return new Map(rows.map((r) => [r.shopify_media_id, r.file_id]));
  }
}
