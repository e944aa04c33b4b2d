import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { runMigrations } from '../run-migrations.js';
import { MIGRATIONS } from './index.js';

// Real PostgreSQL, in a schema of this file's own: the sku map as a connector before issue 42
// left it (gaps and notes on its rows), then this migration fills mapping_gaps from it.
const schema = uniqueId('mappinggaps').replace('-', '_');
const shop = `${uniqueId('shop')}.myshopify.com`;
const CATEGORY = '"Accessories" is not a leaf category of the account: add it to product.productType.values';
const TEAL = '"Teal" is not an allowed value of color: add it to variant.options.Color.values';
const NO_MODEL =
  "variant.barcode is empty in Shopify, so productModel is not set: the catalog's enrichment needs productModel and will fail";

let dataSource: DataSource;

const open = (migrations: typeof MIGRATIONS) =>
  new DataSource({
    type: 'postgres',
    url: inject('databaseUrl'),
    schema,
    migrations,
    migrationsTableName: 'migrations',
    extra: { max: 2 },
  }).initialize();

beforeAll(async () => {
  const before = MIGRATIONS.filter((m) => !m.name.startsWith('CreateMappingGaps'));
  dataSource = await open(before);
  await runMigrations(dataSource, schema);
  const row = async (
    product: string,
    variant: string | null,
    state: string,
    gaps: unknown[],
    notes: unknown[],
  ) =>
    dataSource.query(
      `INSERT INTO "${schema}".sku_map (shop, shopify_product_id, shopify_variant_id, kind, supplier_sku, sku_id,
         state, gaps, notes, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), now())`,
      [
        shop,
        product,
        variant,
        variant === null ? 'parent' : 'variant',
        `${product}:${variant ?? 'own'}`,
        state === 'live' ? `sku-${product}-${variant ?? 'own'}` : null,
        state,
        JSON.stringify(gaps),
        JSON.stringify(notes),
      ],
    );
  const gap = (message: string, attribute: string) => ({ message, attribute, reason: 'unknown-value' });
  const note = { code: 'enrichment-will-fail', attribute: 'productModel', message: NO_MODEL };
  // Product 1: a category gap and the note on its own record; the same colour gap on two variants.
  await row('1', null, 'live', [gap(CATEGORY, 'productCategory')], [note]);
  await row('1', '11', 'live', [gap(TEAL, 'color')], []);
  await row('1', '12', 'live', [gap(TEAL, 'color')], []);
  // Product 2: nothing to say. Product 3: deleted (its rows tombstoned): not a gap any more.
  await row('2', null, 'live', [], []);
  await row('3', null, 'tombstoned', [gap(CATEGORY, 'productCategory')], [note]);
  await dataSource.destroy();
  dataSource = await open(MIGRATIONS);
  await runMigrations(dataSource, schema);
});

afterAll(async () => {
  await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await dataSource?.destroy();
});

describe('CreateMappingGaps1764000000095', () => {
  it("fills mapping_gaps from the sku map's live rows: one reason per cause, its records counted", async () => {
    const rows = await dataSource.query(
      `SELECT product_id::text AS product_id, title, reasons, blocked FROM "${schema}".mapping_gaps WHERE shop = $1`,
      [shop],
    );
    expect(rows).toEqual([
      {
        product_id: '1',
        title: null,
        blocked: false,
        reasons: [
          { reason: CATEGORY, code: 'unknown-value', attribute: 'productCategory', records: 1 },
          { reason: TEAL, code: 'unknown-value', attribute: 'color', records: 2 },
          { reason: NO_MODEL, code: 'enrichment-will-fail', attribute: 'productModel', records: 1 },
        ],
      },
    ]);
  });
});
