import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CanonicalReadError } from '../../clients/shopify/canonical-product.reader.js';
import { fetchCanonicalProduct } from '../../clients/shopify/fetch-canonical-product.js';
import type { ShopAdminClient } from '../../clients/shopify/shop-admin.client.js';
import { readShopCurrency } from '../../clients/shopify/shop-reads.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { listProductPage } from '../../clients/shopify/shopify-product-pages.js';
import {
  checkMapping,
  parseMappingFile,
  readCatalogConfiguration,
  type ValidatedMapping,
} from '../../mapping/index.js';
import { scopeSearches } from '../../mapping/product-scope.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { SyncSettings } from '../../platform/config/settings.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { productGapReasons } from '../../product-sync/gaps/gap-reasons.js';
import { planSync } from '../../product-sync/plan/index.js';
import { ScopeGate } from '../../product-sync/scope/scope-gate.service.js';
import { Shops } from '../../shops/shops.js';
import { type EvaluatedReason, type EvaluationOutcome, EvaluationTally } from './evaluation-tally.js';
import {
  DEFAULT_EVALUATED_PRODUCTS,
  type MappingEvaluationBody,
  type MappingEvaluationDto,
} from './mapping-setup.dto.js';
import { mappingSetupError } from './mapping-setup-errors.js';

/** Products read per evaluated one at most (the others out of scope): a shop of drafts ends the read. */
const READS_PER_PRODUCT = 4;
/** Canonical reads at once (the shop's cost pacer still paces them). */
const CONCURRENT_READS = 4;

/**
 * Why: before anything syncs (issue 43), an operator learns how many of the shop's products a
 * mapping cannot (fully) enrich and why. This takes the mapping sent (checked against the
 * account as at boot) or the shop's own, reads the shop's products as a sync would (the
 * product searches of its scope and statuses, then each one's canonical read) and plans each
 * one as a first sync through the sync's own planner, counting the plan's mapping gaps by the
 * reasons the mapping gaps give (`productGapReasons`). Dry: no catalog call beyond reading the
 * account's definitions, nothing stored, nothing enqueued.
 */
@Injectable()
export class MappingEvaluations {
  constructor(
    private readonly shops: Shops,
    private readonly shopify: ShopifyAdmin,
    private readonly catalogs: CatalogClients,
    private readonly mappings: ShopMappings,
    private readonly scope: ScopeGate,
    private readonly settings: SyncSettings,
    private readonly clock: Clock,
  ) {}

  async evaluate(domain: string, body: MappingEvaluationBody): Promise<MappingEvaluationDto> {
    const shop = this.shops.find(domain)?.domain;
    if (!shop) {
      const name = domain.toLowerCase();
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${name}.`, { shop: name });
    }
    try {
      const { mapping, source } = await this.mappingOf(shop, body);
      const admin = this.shopify.forShop(shop);
      const currencyCode = await readShopCurrency(admin);
      const limit = body.products ?? DEFAULT_EVALUATED_PRODUCTS;
      const tally = new EvaluationTally();
      const scope = mapping.file.scope;
      // One search per criterion value; a scope of collections is judged product by product.
      const searches: Array<string | undefined> =
        scope !== null && scope.collections.length > 0
          ? [undefined]
          : scopeSearches(scope, this.settings.statuses, []);
      const seen = new Set<string>();
      let more = false;
      search: for (const query of searches) {
        let after: string | null = null;
        do {
          const page = await listProductPage(admin, { after, first: Math.min(250, limit * 2), query });
          after = page.next;
          const fresh = page.items.map((item) => item.productId).filter((id) => !seen.has(id));
          for (let at = 0; at < fresh.length; ) {
            const room = Math.min(limit - tally.evaluated, limit * READS_PER_PRODUCT - tally.read);
            if (room <= 0) {
              more = true;
              break search;
            }
            const group = fresh.slice(at, at + Math.min(CONCURRENT_READS, room));
            at += group.length;
            for (const id of group) seen.add(id);
            const outcomes = await Promise.all(
              group.map((id) => this.evaluateOne(shop, admin, id, mapping, currencyCode)),
            );
            for (const outcome of outcomes) tally.record(outcome);
          }
        } while (after !== null);
      }
      return tally.answer(shop, source, more);
    } catch (error) {
      return mappingSetupError(this.clock)(error);
    }
  }

  /** The mapping sent (parsed, checked against the account), else the shop's checked one. */
  private async mappingOf(
    shop: string,
    body: MappingEvaluationBody,
  ): Promise<{ mapping: ValidatedMapping; source: string }> {
    if (body.mapping !== undefined) {
      const source = body.source ?? 'the mapping sent';
      const file = parseMappingFile(body.mapping, source);
      const catalog = await readCatalogConfiguration(this.catalogs.forShop(shop).client);
      return { mapping: checkMapping(file, catalog, source), source };
    }
    let state = this.mappings.state(shop);
    if (state.status === 'pending') state = await this.mappings.recheck(shop);
    switch (state.status) {
      case 'ready':
        return { mapping: state.mapping, source: state.path };
      case 'invalid':
        throw state.error;
      case 'unconfigured':
        throw new ConnectorError(
          ConnectorErrorCode.BAD_REQUEST,
          `${shop} has no mapping file: send one to evaluate ({"mapping": "<the file's text>"}).`,
          { parameter: 'mapping' },
        );
      default:
        throw new ConnectorError(
          ConnectorErrorCode.CATALOG_UNAVAILABLE,
          `The shop's mapping ${state.path} could not be checked against the catalog account yet (${state.lastError ?? 'under way'}).`,
          { shop },
        );
    }
  }

  /** One product read as the sync reads it, then planned as its first sync. */
  private async evaluateOne(
    shop: string,
    admin: ShopAdminClient,
    productId: string,
    mapping: ValidatedMapping,
    currencyCode: string,
  ): Promise<EvaluationOutcome> {
    let read: Awaited<ReturnType<typeof fetchCanonicalProduct>>;
    try {
      read = await fetchCanonicalProduct(admin, productId, {
        expectedVariants: null,
        media: false,
        sources: mapping.sources,
        allVariants: this.settings.largeProducts === 'split',
      });
    } catch (error) {
      if (!(error instanceof CanonicalReadError)) throw error;
      const reason = { reason: error.message, code: 'sync-failure' as const, attribute: null };
      return { kind: 'planned', productId, title: '', reasons: [reason] };
    }
    const product = read.product;
    if (product === null) return { kind: 'gone' };
    if (!(await this.scope.verdict(shop, product, mapping.file.scope)).inScope)
      return { kind: 'out-of-scope' };
    const plan = planSync({
      shop: { domain: shop, currencyCode },
      product,
      mapping,
      stored: [],
      largeProducts: this.settings.largeProducts,
    });
    const reasons: EvaluatedReason[] = productGapReasons({
      gaps: plan.gaps,
      notes: plan.notes,
      failure: plan.failure,
    });
    if (plan.failure !== null && plan.failure.code !== 'missing-required-attribute')
      reasons.push({ reason: plan.failure.message, code: 'sync-failure', attribute: null });
    return { kind: 'planned', productId: product.legacyResourceId, title: product.title, reasons };
  }
}
