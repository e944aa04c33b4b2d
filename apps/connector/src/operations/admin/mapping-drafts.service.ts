import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import {
  listMetafieldDefinitions,
  readMappingSamplePage,
  type SampledProduct,
} from '../../clients/shopify/mapping-sample-reads.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { draftMapping } from '../../mapping/draft/draft-mapping.js';
import { summarizeSample } from '../../mapping/draft/shop-sample.js';
import {
  checkMapping,
  MappingError,
  parseMappingFile,
  readCatalogConfiguration,
} from '../../mapping/index.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import {
  DEFAULT_DRAFT_PRODUCTS,
  type MappingDraftDto,
  type MappingFileProblemDto,
} from './mapping-setup.dto.js';
import { mappingSetupError } from './mapping-setup-errors.js';

/**
 * Why: `connector mapping init` (issue 43) starts an operator's mapping from the shop and the
 * account as they are. This reads the catalog account (attributes, taxonomy), the shop's first
 * products by id (pages of 100: product types, options and their values) and its product and
 * variant metafield definitions, drafts the file (`draftMapping`), and checks the draft against
 * the account as the boot would, so the answer says whether it loads as written. Nothing is
 * written anywhere: the file is the caller's to keep.
 */
@Injectable()
export class MappingDrafts {
  constructor(
    private readonly shops: Shops,
    private readonly shopify: ShopifyAdmin,
    private readonly catalogs: CatalogClients,
    private readonly clock: Clock,
  ) {}

  async draft(domain: string, products: number = DEFAULT_DRAFT_PRODUCTS): Promise<MappingDraftDto> {
    const shop = this.shops.find(domain);
    if (!shop) {
      const name = domain.toLowerCase();
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${name}.`, { shop: name });
    }
    const read: SampledProduct[] = [];
    let after: string | null = null;
    let more = false;
    try {
      const catalog = await readCatalogConfiguration(this.catalogs.forShop(shop.domain).client);
      const admin = this.shopify.forShop(shop.domain);
      do {
        const page = await readMappingSamplePage(admin, after, products - read.length);
        read.push(...page.items);
        after = page.next;
      } while (after !== null && read.length < products);
      more = after !== null;
      const [product, variant] = await Promise.all([
        listMetafieldDefinitions(admin, 'PRODUCT'),
        listMetafieldDefinitions(admin, 'PRODUCTVARIANT'),
      ]);
      const draftedAt = new Date(this.clock.now()).toISOString();
      const sample = summarizeSample(shop.domain, read, more, { product, variant });
      const draft = draftMapping({ sample, catalog, draftedAt });
      return {
        shop: shop.domain,
        draftedAt,
        file: draft.file,
        products: read.length,
        more,
        decisions: draft.decisions,
        counts: draft.counts,
        attributes: draft.attributes,
        problems: problemsOf(draft.file, catalog),
      };
    } catch (error) {
      return mappingSetupError(this.clock)(error);
    }
  }
}

/** The draft checked as the boot checks a file: its problems, none when it is accepted. */
function problemsOf(file: string, catalog: Parameters<typeof checkMapping>[1]): MappingFileProblemDto[] {
  try {
    checkMapping(parseMappingFile(file, 'draft'), catalog, 'draft');
    return [];
  } catch (error) {
    if (error instanceof MappingError) return error.problems.map((p) => ({ ...p }));
    throw error;
  }
}
