import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { apiKeyFingerprint, CatalogClient } from '#lib/catalog-client';
import { SystemClock } from '#lib/clock';
import { oneOffShopifyAdmin } from '../../../clients/shopify/one-off-shopify-admin.js';
import { checkShopToken } from '../../../clients/shopify/shop-reads.js';
import type { ShopifyAdmin } from '../../../clients/shopify/shopify-admin.service.js';
import { checkMappingAgainstCatalog } from '../../../mapping/index.js';
import {
  type LoadedMapping,
  loadShopMapping,
  loadShopMappingFiles,
} from '../../../mapping/load-shop-mappings.js';
import type { ConnectorConfig, ShopConfig } from '../../../platform/config/connector.config.js';
import type { MappingEvaluationDto } from '../../admin/mapping-setup.dto.js';
import type { AdminApi } from '../context/admin-api.js';
import type { CliOutput, ContextOf } from '../context/cli-context.js';
import { CliError } from '../context/cli-error.js';
import { integerOption } from './failures.command.js';

/** What `check-config` checks beyond a shop's configuration. */
interface CheckOptions {
  /** A mapping file to check instead of the shop's own (`--mapping`). */
  mapping: string | null;
  /** Try the mapping on this many of the shop's products through the admin API; null: not. */
  evaluate: number | null;
  admin: AdminApi;
}

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
    .option(
      '--shop <domain>',
      'only this shop; also try its mapping on its products (the connector must run)',
    )
    .option('--mapping <file>', "check this mapping file instead of the shop's own (one shop: --shop)")
    .option(
      '--products <n>',
      'with a shop: how many of its products the mapping is tried on (1-250)',
      integerOption,
      50,
    )
    .action(async (options: { shop?: string; mapping?: string; products: number }, command: Command) => {
      const context = contextOf(command);
      const clock = new SystemClock();
      const shops =
        options.mapping === undefined ? context.shops(options.shop) : [context.shop(options.shop)];
      const checks: CheckOptions = {
        mapping: options.mapping ?? null,
        evaluate: options.shop !== undefined || options.mapping !== undefined ? options.products : null,
        admin: context.admin,
      };
      const { shopify, close } = oneOffShopifyAdmin(context.config, clock);
      let problems = 0;
      try {
        for (const shop of shops) {
          context.out.line(shop.domain);
          problems += await checkShop(context.config, shop, shopify, context.out, clock, checks);
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
  checks: CheckOptions,
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
    if (shop.mappingFile === null && checks.mapping === null) {
      try {
        await catalog.getTaxonomy();
        ok(`${catalogName}: the key is accepted`);
      } catch (error) {
        fail(`${catalogName}: ${describe(error)}`);
      }
      ok(`no mapping file (CONNECTOR_SHOP_${shop.key}_MAPPING_FILE): the shop's products map to nothing`);
      return problems;
    }
    let loaded: LoadedMapping;
    try {
      loaded =
        checks.mapping === null
          ? ((await loadShopMappingFiles([shop])).get(shop.domain) as LoadedMapping)
          : await loadShopMapping(shop.domain, checks.mapping);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      fail(
        code === undefined
          ? indent(describe(error).replace(/^Mapping files refused:\n/, ''))
          : `mapping ${checks.mapping}: cannot be read (${code})`,
      );
      return problems;
    }
    const { path, file } = loaded;
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
      if (checks.evaluate !== null) problems += await evaluate(shop.domain, path, checks, out);
    }
    return problems;
  } finally {
    await catalog.close();
  }
}

/**
 * The mapping tried on the shop's products by the connector (`mapping/evaluation`): how many
 * cannot be (fully) enriched, each reason with its products. Warns; a connector that cannot be
 * reached (or no admin token) skips it; a refusal is a problem.
 */
async function evaluate(shop: string, path: string, checks: CheckOptions, out: CliOutput): Promise<number> {
  let answer: MappingEvaluationDto;
  try {
    answer = await checks.admin.postJson<MappingEvaluationDto>(
      `/admin/shops/${encodeURIComponent(shop)}/mapping/evaluation`,
      { mapping: await readFile(path, 'utf8'), source: path, products: checks.evaluate },
    );
  } catch (error) {
    const message = describe(error);
    if (/^cannot reach the connector|^CONNECTOR_ADMIN_TOKEN/.test(message)) {
      out.line(`  skip  mapping ${path} on the shop's products: ${message}`);
      return 0;
    }
    out.line(`  FAIL  mapping ${path} on the shop's products: ${message}`);
    return 1;
  }
  const plural = (n: number) => `${n} product${n === 1 ? '' : 's'}`;
  const tried = `mapping ${path} on ${plural(answer.evaluated)} of the shop${answer.more ? ` (the first ${answer.evaluated}; --products for more)` : ''}${answer.outOfScope > 0 ? `, ${answer.outOfScope} more not synced (status or scope)` : ''}`;
  if (answer.unenrichable === 0) {
    out.line(`  ok    ${tried}: every one can be enriched`);
    return 0;
  }
  const blocked = answer.blocked > 0 ? ` (${answer.blocked} not created at all)` : '';
  out.line(`  warn  ${tried}: ${answer.unenrichable} cannot be (fully) enriched${blocked}:`);
  for (const reason of answer.reasons) {
    out.line(`          ${plural(reason.products)}: ${reason.reason} (e.g. ${reason.examples.join(', ')})`);
  }
  return 0;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Continuation lines of a multi-line message, under the first. */
function indent(text: string): string {
  return text.replaceAll('\n', '\n        ');
}
