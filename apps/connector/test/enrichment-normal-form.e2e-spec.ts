import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrichmentFixture } from './support/enrichment-fixture.js';

// The Shopify sandbox stores a date and time without a zone as Shopify does, with `+00:00`
// (its README's facts): the connector sends `2026-03-01T09:00:00` and reads back another text.
const TARGET = 'metafield:$app:catalog.available_from';

describe('write-back against a Shopify that keeps values in its own form', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start({
      mapping: (yaml) =>
        yaml.replace(
          /^ {2}product:\n/m,
          '  product:\n    availableFrom: # DATETIME\n      metafield: { namespace: $app:catalog, key: available_from, type: date_time }\n',
        ),
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('writes the value once: a later plan takes Shopify’s form for it, with no conflict', async () => {
    const product = await fx.product('Dated shirt');
    await fx.edit(product.parentSku, [{ key: 'availableFrom', value: '2026-03-01T09:00:00Z' }]);
    await fx.poll();
    const pushes = async () => {
      const { rows } = await fx.harness.db.query(
        `SELECT purpose, result FROM "${fx.harness.schema}".write_back_push
          WHERE shop = $1 AND product_id = $2 AND target_key = $3 ORDER BY id`,
        [fx.shop.domain, product.productId, TARGET],
      );
      return rows.map((r: { purpose: string; result: string }) => `${r.purpose}:${r.result}`);
    };
    expect(await pushes()).toEqual(['push:ok']);
    const state = await fx.shopify(product.gid);
    expect(state.metafields.find((m) => m.key === 'available_from')?.value).toBe('2026-03-01T09:00:00+00:00');

    // Another attribute of the record changes: the whole record is planned again.
    await fx.edit(product.parentSku, [{ key: 'material', value: 'Linen' }]);
    await fx.poll();
    const again = await fx.shopify(product.gid);
    expect(again.metafields.find((m) => m.key === 'material')?.value).toBe('Linen');
    expect(await pushes()).toEqual(['push:ok']);
  });
});
