import { Controller, Get, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { MappingGapsRepository } from '../../product-sync/gaps/mapping-gaps.repository.js';
import { ProductSyncStates } from '../../product-sync/product-sync-states.repository.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import { ResyncService } from '../../resync/resync.service.js';
import { Shops } from '../../shops/shops.js';
import { WriteBackStates } from '../../write-back/store/write-back-states.repository.js';
import { mappingGapProductDto } from '../admin/mapping-gaps.dto.js';
import { ProductStatus } from '../admin/product-status.service.js';
import { ProductTimeline } from '../admin/product-timeline.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiProductResyncForm } from './ui-forms.dto.js';
import { UiAction, UiForm, UiPage, UiPathParam, UiQuery, UiRedirect } from './ui-openapi.decorators.js';
import { targetOwners } from './ui-product-owners.js';
import { type CatalogSide, productPage, resyncConfirmPage } from './ui-product-pages.js';
import { mergeFound, productsPage, type ShopifySearchNote } from './ui-product-search-pages.js';
import { titleKey, UiProductTitles } from './ui-product-titles.service.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';
import { type ShopifyMatch, UiShopifySearch } from './ui-shopify-search.service.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;
const SEARCH_LIMIT = 50;
const PAGE_SIZE = 50;
const ID = UiPathParam('id', { pattern: '^[1-9][0-9]*$' });
const SHOP = UiQuery(
  'shop',
  'One shop (`<name>.myshopify.com`); without it (and without catalogKey), every shop.',
);

/**
 * Why: finding and reading one product in the operators' view. The products page searches the
 * sku map by Shopify product id, supplierSku or skuId; a product's page shows its Shopify and
 * catalog sides, its last sync and write-backs and its timeline in words; resyncing it is
 * confirmed on a page of its own, then done by a POST carrying the session's CSRF token.
 */
@ApiTags('admin-ui')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiProductController {
  constructor(
    private readonly shops: Shops,
    private readonly map: SkuMapRepository,
    private readonly status: ProductStatus,
    private readonly timeline: ProductTimeline,
    private readonly resync: ResyncService,
    private readonly clock: Clock,
    private readonly catalogs: CatalogClients,
    private readonly shopifySearch: UiShopifySearch,
    private readonly mappings: ShopMappings,
    private readonly pushes: WriteBackStates,
    private readonly gaps: MappingGapsRepository,
    private readonly titles: UiProductTitles,
    private readonly syncStates: ProductSyncStates,
  ) {}

  @Get('products')
  @UiPage({
    operationId: 'uiProductLookup',
    summary:
      'The products synced most recently (a page at a time), or a search by title, Shopify product id, supplierSku or skuId (query q, shop)',
    description:
      "A search lists the connector's products (by id, supplierSku, skuId or stored title) and Shopify's matches in the chosen shop (or the only one) as one list.",
  })
  @UiQuery('q', 'A title (or part of one), a Shopify product id, supplierSku or skuId.')
  @UiQuery('shop', 'Search this shop (the only one when omitted).')
  @UiQuery('page', 'Without q: the page of recently synced products (1, the newest, by default).')
  async products(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('q') q?: string,
    @Query('shop') shop?: string,
    @Query('page') pageNumber?: string,
  ): Promise<void> {
    const query = (q ?? '').trim().slice(0, 200);
    const domain = shop === undefined || shop === '' ? null : this.shopOf(shop);
    const domains = this.shops.all.map((s) => s.domain);
    const now = this.clock.now();
    const base = { shops: domains, query, shop: domain, now };
    if (query === '') {
      const page = Math.min(10_000, Math.max(1, Number.parseInt(pageNumber ?? '1', 10) || 1));
      const recent = await this.syncStates.recentlySynced(domain, PAGE_SIZE, (page - 1) * PAGE_SIZE);
      const titles = await this.titles.of(recent.products);
      const view = { ...base, found: null, shopify: null, recent: { ...recent, page }, titles };
      sendHtml(res, 200, productsPage(view, csrfOf(req)));
      return;
    }
    const searchShop = domain ?? (domains.length === 1 ? (domains[0] as string) : null);
    const words = /^title:\s*(.+)$/i.exec(query)?.[1] ?? (/^(handle|sku):/i.test(query) ? '' : query);
    const [named, titled, shopify] = await Promise.all([
      this.map.productsNamed(query, domain, PRODUCT_ID.test(query) ? query : null, SEARCH_LIMIT),
      this.titles.search(domain === null ? domains : [domain], words, SEARCH_LIMIT),
      this.searchShopify(searchShop, query),
    ]);
    const titles = await this.titles.of(named);
    const found = mergeFound(
      named,
      titled,
      searchShop === null ? null : { shop: searchShop, matches: shopify.matches },
      titles,
    );
    const view = { ...base, found, shopify: shopify.note, recent: null, titles };
    sendHtml(res, 200, productsPage(view, csrfOf(req)));
  }

  private async searchShopify(
    shop: string | null,
    query: string,
  ): Promise<{ matches: ShopifyMatch[]; note: ShopifySearchNote }> {
    if (shop === null) return { matches: [], note: { shop, error: null } };
    try {
      return { matches: await this.shopifySearch.search(shop, query), note: { shop, error: null } };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { matches: [], note: { shop, error: message } };
    }
  }

  /** The old look-up form's target, kept for bookmarks: a redirect to the product's page. */
  @Get('products/lookup')
  @UiRedirect({
    operationId: 'uiProductLookupGo',
    summary: "Redirects (303) to the product's timeline",
    errors: [400],
  })
  @UiQuery('id', 'Shopify product id.')
  @SHOP
  lookup(
    @Query('id') id: string | undefined,
    @Query('shop') shop: string | undefined,
    @Res() res: Response,
  ): void {
    const product = productIdOf(id);
    res.redirect(303, `/admin/ui/products/${product}?shop=${encodeURIComponent(this.shopOf(shop))}`);
  }

  @Get('products/:id')
  @UiPage({
    operationId: 'uiProductTimeline',
    summary: "A product's timeline: webhooks, jobs, failures, sync records and write-backs",
    errors: [400],
  })
  @ID
  @SHOP
  @UiQuery('done', 'The resync run just started, named in a notice.')
  async product(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @Query('shop') shop?: string,
    @Query('done') done?: string,
  ): Promise<void> {
    const product = productIdOf(id);
    const domain = this.shopOf(shop);
    const [rows, events, states, gaps, titles] = await Promise.all([
      this.map.rowsOfProduct(domain, product),
      this.timeline.events(domain, product),
      this.pushes.forProduct(domain, product),
      this.gaps.ofProduct(domain, product),
      this.titles.of([{ shop: domain, productId: product }]),
    ]);
    const mapping = this.mappings.mapping(domain);
    const owners = mapping === null ? null : targetOwners(mapping.writeBack, states);
    const status = rows.length > 0 ? await this.status.of(product, domain) : null;
    const own = rows.find((row) => row.shopifyVariantId === null && row.skuId !== null);
    const catalog = own?.skuId ? await this.catalogValues(domain, own.skuId) : null;
    const notice = done !== undefined && /^[\w-]{1,80}$/.test(done) ? `Resync started: run ${done}.` : null;
    sendHtml(
      res,
      200,
      productPage(
        {
          shop: domain,
          productId: product,
          rows,
          status,
          catalog,
          events,
          owners,
          gaps: gaps === null ? null : mappingGapProductDto(gaps),
          now: this.clock.now(),
          notice,
          title: titles.get(titleKey(domain, product)) ?? null,
        },
        csrfOf(req),
      ),
    );
  }

  /** The confirm step: says what the resync will do; changes nothing. */
  @Get('products/:id/resync')
  @UiPage({
    operationId: 'uiProductResyncConfirm',
    summary: "A product resync's confirm page",
    errors: [400, 404, 409],
  })
  @ID
  @UiQuery('shop', 'The shop.')
  confirmResync(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @Query('shop') shop?: string,
  ): void {
    sendHtml(res, 200, resyncConfirmPage(this.shopOf(shop), productIdOf(id), csrfOf(req)));
  }

  @Post('products/:id/resync')
  @UiAction({
    operationId: 'uiProductResync',
    summary: 'Resync a product',
    answer: 303,
    errors: [400, 403, 404, 409],
    form: UiProductResyncForm,
  })
  @ID
  async doResync(
    @UiForm() form: UiProductResyncForm,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const product = productIdOf(id);
    const domain = this.shopOf(form.shop);
    const run = await this.resync.start(domain, product);
    res.redirect(
      303,
      `/admin/ui/products/${product}?shop=${encodeURIComponent(domain)}&done=${encodeURIComponent(run.id)}`,
    );
  }

  /** The catalog record's attributes read now (one interactive call), or why they could not be. */
  private async catalogValues(shop: string, skuId: string): Promise<CatalogSide> {
    try {
      const record = await this.catalogs.forShop(shop).client.getProduct(skuId, { priority: 'interactive' });
      const values: CatalogSide['values'] = {};
      for (const entry of record.attributes) {
        if (entry.value === null || entry.value === '') continue;
        values[entry.key] = {
          value: shown(entry.value),
          blame: entry.blame ? entry.blame.toLowerCase().replace(/_/g, ' ') : null,
        };
      }
      return { values, error: null };
    } catch (error) {
      return { values: {}, error: (error as { code?: string }).code ?? 'error' };
    }
  }

  /** The shop asked for, or the only one; else 400. */
  private shopOf(shop: string | undefined): string {
    const found =
      shop === undefined || shop === ''
        ? this.shops.all.length === 1
          ? this.shops.all[0]
          : undefined
        : this.shops.find(shop);
    if (!found)
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'Name a shop this connector serves.', {
        parameter: 'shop',
      });
    return found.domain;
  }
}

function productIdOf(id: string | undefined): string {
  if (id === undefined || !PRODUCT_ID.test(id)) {
    throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'A Shopify product id is a number.', {
      parameter: 'id',
    });
  }
  return id;
}

/** An attribute value as text: lists joined, structured values as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return JSON.stringify(value);
}
