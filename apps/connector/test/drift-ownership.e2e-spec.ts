import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productBody, type TestAccount } from '#testing/catalog-sandbox';
import type { DriftRepairOutcome } from '../src/drift/drift-repairs.service.js';
import type { DriftReportDto } from '../src/drift/drift-report.dto.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../mappings/demo.yaml', import.meta.url));
const TOKEN = `admin-${randomBytes(16).toString('hex')}`;

// Issue 40, item 1, over HTTP: two shops on one catalog account, each with its own API key of
// that account (the catalog allows several), synced by one replica; a second replica (same
// tables) serves only shop A and never served B. A's report there proposes deleting none of B's
// records (claims come from the whole sku map, not a replica's memory or a key); only the
// connector's own leftover is proposed for deletion, and a repair re-checks it when it runs:
// refused once the record is claimed (a link took it), refused in shadow mode, held for
// confirmation while it holds approved enrichment. A report while the catalog's breaker is open
// answers 503 with when to retry.
describe('drift report: nothing destructive without proof', () => {
  let sandboxes: Sandboxes;
  let account: TestAccount;
  let first: ConnectorHarness;
  let second: ConnectorHarness;
  let dir: string;
  const [a, b] = [testShop(), testShop()];
  const handleOf = (shop: TestShop) => shop.domain.replace(/\.myshopify\.com$/, '');

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of [a, b]) {
      shop.webhookSecrets = [sandboxes.shopify.appSecret];
      await sandboxes.addShop(shop);
    }
    account = await sandboxes.account();
    const keyB = `second-key-${randomBytes(12).toString('hex')}`;
    const added = await sandboxes.catalog.portal.post(`/portal/v1/accounts/${account.id}/api-keys`, {
      key: keyB,
    });
    expect(added.status).toBe(200);
    dir = await mkdtemp(join(tmpdir(), 'drift-ownership-'));
    const mapping = join(dir, 'mapping.yaml');
    await writeFile(mapping, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    const env = (shops: TestShop[]) => ({
      CONNECTOR_ADMIN_TOKEN: TOKEN,
      CONNECTOR_MEDIA_ENABLED: 'false',
      CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
      ...Object.fromEntries(shops.map((s) => [`CONNECTOR_SHOP_${s.key}_MAPPING_FILE`, mapping])),
      ...(shops.includes(b) ? { [`CONNECTOR_SHOP_${b.key}_CATALOG_API_KEY`]: keyB } : {}),
    });
    first = await startConnector({
      shops: [a, b],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: env([a, b]),
    });
    for (const shop of [a, b]) await eventually(async () => (await sandboxes.subscriptions(shop)).length > 0);
    second = await startConnector({
      shops: [a],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      schema: first.schema,
      env: env([a]),
    });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sandboxes?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const create = async (shop: TestShop, product: Record<string, unknown>) => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product });
    expect(created.status).toBeLessThan(300);
    return String((created.body.product as { id: number }).id);
  };
  const liveSkuIds = async (shop: TestShop, productId: string, count: number) =>
    eventually(async () => {
      const { rows } = await first.db.query<{ sku_id: string | null; state: string }>(
        `SELECT sku_id, state FROM "${first.schema}".sku_map WHERE shop = $1 AND shopify_product_id = $2`,
        [shop.domain, productId],
      );
      return (
        rows.length === count && rows.every((r) => r.state === 'live') && rows.map((r) => r.sku_id as string)
      );
    }, 30_000);
  const record = async (supplierSku: string) => {
    const made = await account.api.post('/v1/products', productBody(supplierSku));
    expect(made.status).toBeLessThan(300);
    return (made.body as { data: { skuId: string } }).data.skuId;
  };
  const report = async (replica: ConnectorHarness, shop: TestShop) => {
    const answer = await call<DriftReportDto>(
      replica.url,
      'POST',
      `/admin/shops/${shop.domain}/drift`,
      TOKEN,
    );
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const repair = async (replica: ConnectorHarness, reportId: string, body: Record<string, unknown>) => {
    const answer = await call<{ repairs: DriftRepairOutcome[] }>(
      replica.url,
      'POST',
      `/admin/drift/${reportId}/repairs`,
      TOKEN,
      body,
    );
    expect(answer.status, answer.text).toBe(200);
    return answer.body.repairs;
  };
  const exists = async (skuId: string) => (await account.api.get(`/v1/products/${skuId}`)).status === 200;

  it("never proposes another shop's records for deletion, and re-checks a delete when it runs", async () => {
    // B's products, synced under B's key by the first replica: a simple one and one with options.
    const simpleB = await create(b, { title: 'B mug', vendor: 'Acme' });
    const optionsB = await create(b, {
      title: 'B shirt',
      vendor: 'Acme',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'S', price: '10.00' },
        { option1: 'M', price: '11.00' },
      ],
    });
    const recordsOfB = [...(await liveSkuIds(b, simpleB, 1)), ...(await liveSkuIds(b, optionsB, 3))];
    const productA = await create(a, { title: 'A board', vendor: 'Acme' });
    await liveSkuIds(a, productA, 1);
    // The connector's own leftovers of shop A (products Shopify does not have); one holds an
    // approved value a person reviewed.
    const tag = Date.now();
    const claimedLater = await record(`${handleOf(a)}:product:91${tag}`);
    const shadowed = await record(`${handleOf(a)}:product:92${tag}`);
    const bulk = await sandboxes.catalog.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, {
      products: [
        {
          supplierSku: `${handleOf(a)}:product:93${tag}`,
          attributes: [
            { key: 'name', value: 'Enriched leftover' },
            { key: 'brand', value: 'Acme' },
            { key: 'seoTitle', value: 'An approved title', blame: 'ENRICHMENT_APPROVED' },
          ],
        },
      ],
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const [enriched] = (bulk.body as { data: { skuIds: string[] } }).data.skuIds as [string];

    // Shop A's report on the replica that never served B.
    const found = await report(second, a);
    const aboutB = found.findings.filter((f) => f.skuId !== null && recordsOfB.includes(f.skuId));
    expect(aboutB).toEqual([]);
    expect(
      found.findings
        .filter((f) => f.repair === 'delete-record')
        .map((f) => f.skuId)
        .sort(),
    ).toEqual([claimedLater, shadowed, enriched].sort());
    const idOf = (skuId: string) => found.findings.find((f) => f.skuId === skuId)?.id as string;

    // The record is claimed after the report: a product of A whose SKU is that supplierSku
    // (its webhook lost) is linked to it.
    await sandboxes.shopify.control('PUT', `shops/${a.domain}/delivery-faults`, { drop: 1 });
    await create(a, {
      title: 'A restored',
      vendor: 'Acme',
      variants: [{ price: '5.00', sku: `${handleOf(a)}:product:91${tag}` }],
    });
    const linked = await call<{ counts: { linked: number } }>(
      second.url,
      'POST',
      `/admin/link?shop=${a.domain}&resync=false`,
      TOKEN,
    );
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body.counts.linked).toBe(1);
    expect(await repair(second, found.id, { ids: [idOf(claimedLater)] })).toEqual([
      expect.objectContaining({
        outcome: 'refused',
        reason: `record ${claimedLater} is claimed by the sku map now`,
      }),
    ]);

    // Shadow mode: no catalog delete at all.
    const mode = (to: string) =>
      call(second.url, 'PUT', `/admin/shops/${a.domain}/mode`, TOKEN, { mode: to });
    expect((await mode('shadow')).status).toBe(200);
    expect(await repair(second, found.id, { ids: [idOf(shadowed)] })).toEqual([
      expect.objectContaining({
        outcome: 'refused',
        reason: 'the shop is in shadow mode: nothing is deleted from the catalog',
      }),
    ]);
    expect((await mode('live')).status).toBe(200);

    // Approved enrichment: held until the request names the record, saying what is lost.
    const held = await repair(second, found.id, { kind: 'orphan' });
    expect(held.find((r) => r.findingId === idOf(enriched))).toMatchObject({
      outcome: 'needs-confirmation',
      loses: ['seoTitle'],
      skuId: enriched,
    });
    expect(held.find((r) => r.findingId === idOf(shadowed))?.outcome).toBe('deleted');
    expect(await exists(enriched)).toBe(true);
    expect(
      (await repair(second, found.id, { ids: [idOf(enriched)], confirmLoss: [enriched] }))[0]?.outcome,
    ).toBe('deleted');

    // What was deleted: the two leftovers, nothing else.
    expect(await exists(shadowed)).toBe(false);
    expect(await exists(enriched)).toBe(false);
    expect(await exists(claimedLater)).toBe(true);
    for (const skuId of recordsOfB) {
      const kind = (await account.api.get(`/v1/products/${skuId}`)).status === 200 ? 'products' : 'variants';
      expect((await account.api.get(`/v1/${kind}/${skuId}`)).status, skuId).toBe(200);
    }
    const deletes = (await account.controls.requests({ method: 'DELETE' })).map((r) => r.path).sort();
    expect(deletes).toEqual([`/v1/products/${enriched}`, `/v1/products/${shadowed}`].sort());
  }, 120_000);

  it("answers 503 with the breaker's state and when to retry while the catalog's breaker is open", async () => {
    const c = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(c);
    const refused = await startConnector({
      shops: [c],
      catalogUrl: sandboxes.catalog.url,
      // A key the catalog does not know: the breaker for it opens (at the boot check, or at the
      // first refused call).
      catalogApiKey: `unknown-${randomBytes(8).toString('hex')}`,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: TOKEN, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
    try {
      const answer = await eventually(async () => {
        const tried = await call<{ error: { code: string; details: Record<string, unknown> } }>(
          refused.url,
          'POST',
          `/admin/shops/${c.domain}/drift`,
          TOKEN,
        );
        return tried.status === 503 && tried;
      }, 30_000);
      expect(answer.body.error.code).toBe('catalog_unavailable');
      expect(answer.body.error.details).toMatchObject({ breaker: 'open', reason: 'auth' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.error.details.retryAfterSeconds).toBe(Number(answer.headers.get('retry-after')));
    } finally {
      await refused.close();
    }
  }, 60_000);
});
