import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
// The harness moves behind the `#testing/catalog-sandbox` alias; until then, by path (tests only).
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';
import { demoCatalogConfiguration } from '../../test/support/demo-catalog.js';
import { checkMappingAgainstCatalog, readCatalogConfiguration } from './mapping-boot-check.js';
import { loadMappingFile, parseMappingFile } from './parse-mapping-file.js';

const DEMO_MAPPING = fileURLToPath(new URL('../../mappings/demo.yaml', import.meta.url));
const DEFAULT_SEED = fileURLToPath(new URL('../../../catalog-sandbox/seed/default.json', import.meta.url));
const DEMO_KEY = 'demo-api-key-0001';

// The boot check against a real catalog sandbox started with its default seed (`demo` account).
describe('mapping boot check against the catalog sandbox', () => {
  let sandbox: CatalogSandboxHarness;
  let client: CatalogClient;
  const clientFor = (baseUrl: string, apiKey = DEMO_KEY) =>
    new CatalogClient({
      baseUrl,
      apiKey,
      rate: { ratePerSecond: 100, burst: 20 },
      retry: { maxAttempts: 1 },
    });

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ env: { CATALOG_SANDBOX_SEED: DEFAULT_SEED } });
    client = clientFor(sandbox.url);
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('accepts the reference mapping apps/connector/mappings/demo.yaml for the seeded demo account', async () => {
    const result = await checkMappingAgainstCatalog(
      await loadMappingFile(DEMO_MAPPING),
      client,
      DEMO_MAPPING,
    );
    expect(result.status).toBe('ready');
    if (result.status !== 'ready') return;
    expect(result.mapping.warnings).toEqual([]);
    expect(result.mapping.optionFor('Colour')?.definition).toMatchObject({ key: 'color', type: 'DROPDOWN' });
    expect(result.mapping.taxonomy.isLeaf('apparel-tops-shirts')).toBe(true);
  });

  it("the unit tests' demo configuration is what the seeded account answers", async () => {
    const live = await readCatalogConfiguration(client);
    const shape = (c: typeof live) => ({
      attributes: c.attributes.map((a) => ({
        key: a.key,
        type: a.type,
        variantable: a.option.variantable === true,
        disabled: a.option.disabled === true,
        values: a.option.values ?? null,
      })),
      leaves: (function leaves(nodes: typeof c.taxonomy): string[] {
        return nodes.flatMap((n) => (n.children.length === 0 ? [n.id] : leaves(n.children)));
      })(c.taxonomy),
    });
    expect(shape(demoCatalogConfiguration())).toEqual(shape(live));
  });

  it('refuses a mapping that does not fit the account, naming each entry', async () => {
    const file = parseMappingFile(`
version: 1
product:
  title: name
  vendor: brand
  productType: { attribute: productCategory, values: { Tops: apparel-tops } }
variant:
  sku: material
  options:
    Color: { attribute: color, values: { Teal: Turquoise } }
`);
    const result = await checkMappingAgainstCatalog(file, client, 'broken.yaml');
    expect(result.status).toBe('invalid');
    if (result.status !== 'invalid') return;
    expect(result.error.problems.map((p) => p.path)).toEqual([
      'variant.sku',
      'product.productType.values.Tops',
      'variant.options.Color.values.Teal',
    ]);
    expect(result.error.message).toContain('attribute "material" is not variant-specific');
    expect(result.error.message).toContain('category "apparel-tops" is not a leaf');
    expect(result.error.message).toContain('"Turquoise" is not one of the values of color');
  });

  it('says the catalog is unavailable when the check cannot be made (refused key, no server)', async () => {
    const file = await loadMappingFile(DEMO_MAPPING);
    const refused = clientFor(sandbox.url, 'not-a-key');
    const noServer = clientFor('http://127.0.0.1:9');
    try {
      const unauthorised = await checkMappingAgainstCatalog(file, refused);
      expect(unauthorised).toMatchObject({ status: 'catalog-unavailable', error: { status: 401 } });
      const down = await checkMappingAgainstCatalog(file, noServer);
      expect(down).toMatchObject({ status: 'catalog-unavailable', error: { code: 'network_error' } });
    } finally {
      await refused.close();
      await noServer.close();
    }
  });
});
