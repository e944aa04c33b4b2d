import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import { CatalogClients } from '../src/clients/catalog/catalog-clients.service.js';
import { checkMapping } from '../src/mapping/check-mapping.js';
import { readCatalogConfiguration } from '../src/mapping/mapping-boot-check.js';
import { parseMappingFile } from '../src/mapping/parse-mapping-file.js';
import type { MappingEvaluationDto } from '../src/operations/admin/mapping-setup.dto.js';
import { runCli } from '../src/operations/cli/connector-cli.js';
import type { CliOutput } from '../src/operations/cli/context/cli-context.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

const CATEGORY =
  'category "Apparel" is not a leaf category of the account (it has apparel-tops, apparel-bottoms): map it to one of its leaves in product.productType.values';
const NO_MODEL =
  "variant.barcode is empty in Shopify, so productModel is not set: the catalog's enrichment needs productModel and will fail";
const MUGS =
  'category "Mugs" is not a category of the account: map it to a leaf category in product.productType.values, or add it to the catalog\'s taxonomy';

// Issue 43: a mapping for a real store before anything syncs. `connector mapping init` drafts one
// from the Shopify sandbox's demo shop and an account seeded as the catalog sandbox's `demo`
// (taxonomy and attributes), which `check-config` accepts; on a shop with a product type that
// names a category that is not a leaf it lists that type as a decision; and `check-config`
// with a shop reports how many of its products the mapping cannot enrich, by the mapping gaps'
// reasons, with no catalog write and no sync.
describe('connector mapping init and check-config --shop', () => {
  let sandboxes: Sandboxes;
  let account: TestAccount;
  let harness: ConnectorHarness;
  let demo: TestShop;
  let own: TestShop;
  let dir: string;
  const token = `mapping-${'t'.repeat(32)}`;

  const cli = async (...args: string[]) => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const out: CliOutput = {
      line: (text = '') => stdout.push(text),
      warn: (text) => stderr.push(text),
      progress: process.stderr,
    };
    // No CONNECTOR_SHOPIFY_ADMIN_ORIGIN: in this one process the connector's route of each shop
    // to the sandbox (`routeShopFetch`) serves the command line's Shopify calls too.
    const env: Record<string, string> = {
      CONNECTOR_SHOPS: `${demo.domain},${own.domain}`,
      CONNECTOR_CATALOG_URL: sandboxes.catalog.url,
      CONNECTOR_CATALOG_API_KEY: account.apiKey,
      CONNECTOR_ADMIN_TOKEN: token,
    };
    for (const shop of [demo, own]) {
      env[`CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN`] = shop.accessToken;
      env[`CONNECTOR_SHOP_${shop.key}_WEBHOOK_SECRETS`] = shop.webhookSecrets.join(',');
    }
    const code = await runCli(['--url', harness.url, ...args], env, out);
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  };
  const create = async (shop: TestShop, product: Record<string, unknown>) => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product });
    if (created.status >= 300) throw new Error(`create refused: ${JSON.stringify(created.body)}`);
    return String((created.body.product as { id: number }).id);
  };

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    const { shopify } = sandboxes;
    demo = {
      domain: shopify.shopDomain,
      key: 'DEMO',
      accessToken: shopify.accessToken,
      webhookSecrets: [shopify.appSecret],
    };
    own = testShop({ webhookSecrets: [shopify.appSecret] });
    await sandboxes.addShop(own);
    account = await sandboxes.account();
    // No mapping file for either shop: nothing can sync while the operator writes one.
    harness = await startConnector({
      shops: [demo, own],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
    dir = await mkdtemp(join(tmpdir(), 'mapping-init-'));
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drafts a mapping of the demo shop onto the seeded account that check-config accepts', async () => {
    // The demo story's products (scripts/demo/story.mjs) and a metafield definition of the shop.
    await create(demo, {
      title: 'Demo Linen Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'S', price: '49.00', barcode: '4006381333931', sku: 'DEMO-LIN-S' },
        { option1: 'M', price: '49.00', barcode: '4006381333948', sku: 'DEMO-LIN-M' },
      ],
    });
    await create(demo, {
      title: 'Demo Chef Knife',
      vendor: 'Acme',
      product_type: 'Knives',
      variants: [{ price: '89.00', barcode: '4006381333955', sku: 'DEMO-KNIFE' }],
    });
    const definition = await sandboxes.shopify.graphql<{
      metafieldDefinitionCreate: { userErrors: unknown[] };
    }>(
      `mutation($d: MetafieldDefinitionInput!) { metafieldDefinitionCreate(definition: $d) {
         createdDefinition { id } userErrors { message } } }`,
      {
        d: {
          name: 'Fabric',
          namespace: 'custom',
          key: 'material',
          type: 'single_line_text_field',
          ownerType: 'PRODUCT',
        },
      },
    );
    expect(definition.data?.metafieldDefinitionCreate.userErrors).toEqual([]);

    const out = join(dir, 'demo.yaml');
    const init = await cli('mapping', 'init', '--shop', demo.domain, '--out', out);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      `${demo.domain}: mapping drafted from 2 products and the catalog account, written to ${out}`,
    );
    expect(init.stdout).toContain(
      'matched by name: 2 of 2 product types, 1 of 1 options, 1 of 1 metafield definitions',
    );
    expect(init.stdout).toContain('nothing left to decide');

    // The file is the format the connector reads, and fits the account as the boot checks it.
    const text = await readFile(out, 'utf8');
    expect(text).toMatch(/^# Starting mapping of demo\.myshopify\.com/);
    const file = parseMappingFile(text, out);
    expect(file.product.find((e) => e.field === 'productType')?.values).toEqual([
      ['Knives', 'home-kitchen-knives'],
      ['Shirts', 'apparel-tops-shirts'],
    ]);
    expect(file.product.map((e) => `${e.field} -> ${e.attribute}`)).toContain(
      'metafields.custom.material -> material',
    );
    expect(file.options.map((o) => `${o.name} -> ${o.attribute}`)).toEqual(['Size -> size']);
    const catalog = await readCatalogConfiguration(
      harness.connector.app.get(CatalogClients).forShop(demo.domain).client,
    );
    expect(checkMapping(file, catalog, out).warnings).toEqual([]);

    const check = await cli('check-config', '--shop', demo.domain, '--mapping', out);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(new RegExp(`ok {4}mapping ${out}: \\d+ entries fit the catalog account`));
    expect(check.stdout).toContain(
      `ok    mapping ${out} on 2 products of the shop: every one can be enriched`,
    );
    expect(check.stdout).toContain('check-config: every shop is ready to sync');

    // A second run does not write over the file without --force.
    const again = await cli('mapping', 'init', '--shop', demo.domain, '--out', out);
    expect(again.stderr).toContain(`${out} exists: choose another --out, or --force to write over it`);
    expect(again.code).toBe(2);
  });

  it('lists a product type naming a category that is not a leaf as a decision', async () => {
    await create(own, {
      title: 'Linen Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      variants: [{ price: '35.00', barcode: '4006381333931' }],
    });
    await create(own, {
      title: 'Leather Belt',
      vendor: 'Acme',
      product_type: 'Apparel',
      variants: [{ price: '25.00' }],
    });
    await create(own, {
      title: 'Ceramic Mug',
      vendor: 'Acme',
      product_type: 'Mugs',
      variants: [{ price: '12.00', barcode: '4006381333962' }],
    });
    // Without --out, the file on stdout and the summary on stderr.
    const init = await cli('mapping', 'init', '--shop', own.domain);
    expect(init.stderr).toContain('needs a decision');
    expect(init.code).toBe(0);
    expect(init.stderr).toContain('needs a decision (2, each marked TODO in the file):');
    expect(init.stderr).toContain(
      'product type "Apparel" (1 product): category "Apparel" (apparel) is not a leaf: only leaves may be assigned; choose one of its leaves (candidates: apparel-tops-tshirts (Apparel > Tops > T-Shirts), apparel-tops-shirts (Apparel > Tops > Shirts),',
    );
    expect(init.stderr).toContain('product type "Mugs" (1 product): no leaf category of that name');
    expect(init.stdout).toMatch(
      /^ {6}# TODO product type "Apparel" \(1 product\): category "Apparel" \(apparel\) is not/m,
    );
    expect(parseMappingFile(init.stdout).product.find((e) => e.field === 'productType')?.values).toEqual([
      ['Shirts', 'apparel-tops-shirts'],
    ]);
    await writeFile(join(dir, 'own.yaml'), `${init.stdout}\n`);
  });

  it('check-config with a shop reports how many of its products cannot be enriched, and why, before anything syncs', async () => {
    const path = join(dir, 'own.yaml');
    const since = Date.now();
    const check = await cli('check-config', '--shop', own.domain, '--mapping', path);
    expect(check.code).toBe(0);
    const lines = check.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`  warn  mapping ${path} on 3 products of the shop`));
    expect(lines[at]).toBe(
      `  warn  mapping ${path} on 3 products of the shop: 2 cannot be (fully) enriched:`,
    );
    expect(
      lines
        .slice(at + 1, at + 4)
        .map((l) => l.trim().replace(/ \(e\.g\. \d+\)$/, ''))
        .sort(),
    ).toEqual([`1 product: ${CATEGORY}`, `1 product: ${NO_MODEL}`, `1 product: ${MUGS}`].sort());

    // The route's answer, by reason, the way the mapping gaps count them.
    const answer = await call<MappingEvaluationDto>(
      harness.url,
      'POST',
      `/admin/shops/${own.domain}/mapping/evaluation`,
      token,
      { mapping: await readFile(path, 'utf8'), source: 'own.yaml' },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      shop: own.domain,
      read: 3,
      evaluated: 3,
      unenrichable: 2,
      blocked: 0,
      more: false,
    });
    expect(answer.body.reasons.map((r) => [r.code, r.products, r.reason]).sort()).toEqual(
      [
        ['enrichment-will-fail', 1, NO_MODEL],
        ['unknown-value', 1, CATEGORY],
        ['unknown-value', 1, MUGS],
      ].sort(),
    );
    expect(answer.body.products.map((p) => p.title).sort()).toEqual(['Ceramic Mug', 'Leather Belt']);

    // Dry: the account was only read, and nothing synced or recorded a gap.
    const calls = await account.controls.requests({ since });
    expect(calls.filter((c) => c.method !== 'GET' && !c.path.endsWith('/search'))).toEqual([]);
    const gaps = await call<{ products: number }>(
      harness.url,
      'GET',
      `/admin/mapping-gaps?shop=${own.domain}`,
      token,
    );
    expect(gaps.body.products).toBe(0);

    // A mapping the account refuses is a 400 naming each problem.
    const refused = await call<{ error: { code: string; details: { problems: Array<{ path: string }> } } }>(
      harness.url,
      'POST',
      `/admin/shops/${own.domain}/mapping/evaluation`,
      token,
      { mapping: 'version: 1\nproduct:\n  title: name\n  vendor: brand\n  productType: nope\n' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.problems.map((p) => p.path)).toEqual(['product.productType']);
    // Without one, the shop's own mapping: this shop has none yet.
    const none = await call<{ error: { message: string } }>(
      harness.url,
      'POST',
      `/admin/shops/${own.domain}/mapping/evaluation`,
      token,
      {},
    );
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe(
      `${own.domain} has no mapping file: send one to evaluate ({"mapping": "<the file's text>"}).`,
    );
  });
});
