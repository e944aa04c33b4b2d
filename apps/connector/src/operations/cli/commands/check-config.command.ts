import { Command } from 'commander';
import { apiKeyFingerprint, CatalogClient } from '#lib/catalog-client';
import { SystemClock } from '#lib/clock';
import { oneOffShopifyAdmin } from '../../../clients/shopify/one-off-shopify-admin.js';
import { checkShopToken } from '../../../clients/shopify/shop-reads.js';
import type { ShopifyAdmin } from '../../../clients/shopify/shopify-admin.service.js';
import { checkMappingAgainstCatalog } from '../../../mapping/index.js';
import { type LoadedMapping, loadShopMappingFiles } from '../../../mapping/load-shop-mappings.js';
import type { ConnectorConfig, ShopConfig } from '../../../platform/config/connector.config.js';
import type { CliOutput, ContextOf } from '../context/cli-context.js';
import { CliError } from '../context/cli-error.js';

/**
 * `check-config`: checks, for each configured shop, what the connector needs before it can sync:
 * the Shopify token (one tiny Admin query), the catalog key (a taxonomy read), and the mapping
 * file, parsed and checked against the catalog account exactly as at boot
 * (`loadShopMappingFiles`, `checkMappingAgainstCatalog`). Every problem is printed, naming the
 * shop and the entry; any problem exits 1.
 */
export function checkConfigCommand(contextOf: ContextOf): Command {
  return new Command('check-config')
    .description(
      'check each shop: its Shopify token, its catalog key, and its mapping file against the catalog account',
    )
    .option('--shop <domain>', 'only this shop')
    .action(async (options: { shop?: string }, command: Command) => {
      const context = contextOf(command);
      const clock = new SystemClock();
      const { shopify, close } = oneOffShopifyAdmin(context.config, clock);
      let problems = 0;
      try {
        for (const shop of context.shops(options.shop)) {
          context.out.line(shop.domain);
          problems += await checkShop(context.config, shop, shopify, context.out, clock);
        }
      } finally {
        close();
      }
      if (problems > 0)
        throw new CliError(`check-config: ${problems} problem${problems === 1 ? '' : 's'} found`);
      context.out.line('check-config: every shop is ready to sync');
    });
}

async function checkShop(
  config: ConnectorConfig,
  shop: ShopConfig,
  shopify: ShopifyAdmin,
  out: CliOutput,
  clock: SystemClock,
): Promise<number> {
  let problems = 0;
  const ok = (text: string) => out.line(`  ok    ${text}`);
  const fail = (text: string) => {
    problems += 1;
    out.line(`  FAIL  ${text}`);
  };

  try {
    await checkShopToken(shopify.forShop(shop.domain));
    ok(`Shopify Admin API ${shop.apiVersion}: the access token is accepted`);
  } catch (error) {
    fail(
      `Shopify Admin API ${shop.apiVersion}: ${describe(error)} (CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN)`,
    );
  }

  const catalogName = `catalog ${shop.catalog.baseUrl} (key ${apiKeyFingerprint(shop.catalog.apiKey.reveal())})`;
  const catalog = new CatalogClient({
    baseUrl: shop.catalog.baseUrl,
    apiKey: shop.catalog.apiKey.reveal(),
    clock,
    rate: { ratePerSecond: config.catalog.ratePerSecond, burst: config.catalog.burst },
    retry: { maxAttempts: 2, baseDelayMs: 200 },
    timeouts: { readMs: 15_000 },
    logger: { debug: () => undefined, warn: () => undefined },
  });
  try {
    if (shop.mappingFile === null) {
      try {
        await catalog.getTaxonomy();
        ok(`${catalogName}: the key is accepted`);
      } catch (error) {
        fail(`${catalogName}: ${describe(error)}`);
      }
      ok(`no mapping file (CONNECTOR_SHOP_${shop.key}_MAPPING_FILE): the shop's products map to nothing`);
      return problems;
    }
    let loaded: Awaited<ReturnType<typeof loadShopMappingFiles>>;
    try {
      loaded = await loadShopMappingFiles([shop]);
    } catch (error) {
      fail(indent(describe(error).replace(/^Mapping files refused:\n/, '')));
      return problems;
    }
    const { path, file } = loaded.get(shop.domain) as LoadedMapping;
    const result = await checkMappingAgainstCatalog(file, catalog, path);
    if (result.status === 'catalog-unavailable') {
      fail(`${catalogName}: ${describe(result.error)}; mapping ${path} not checked`);
    } else if (result.status === 'invalid') {
      ok(`${catalogName}: the key is accepted`);
      fail(indent(`mapping ${path}: ${result.error.message}`));
    } else {
      ok(`${catalogName}: the key is accepted`);
      const entries = file.product.length + file.variant.length + file.options.length + file.writeBack.length;
      ok(`mapping ${path}: ${entries} entries fit the catalog account`);
      for (const warning of result.mapping.warnings)
        out.line(`  warn  mapping ${path}: ${warning.path}: ${warning.message}`);
    }
    return problems;
  } finally {
    await catalog.close();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Continuation lines of a multi-line message, under the first. */
function indent(text: string): string {
  return text.replaceAll('\n', '\n        ');
}
