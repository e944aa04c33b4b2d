import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import type { ShopMode } from '../../platform/config/shop-mode.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { InstalledShopDirectory } from '../../shops/installed-shop-directory.service.js';
import { ShopModeRefused, ShopModes } from '../../shops/shop-modes.service.js';
import { Shops } from '../../shops/shops.js';
import { GoLive } from '../admin/go-live.service.js';
import { previewCsv, shopPreview } from '../admin/shop-preview.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiCatalogKeyForm, UiShopModeForm } from './ui-forms.dto.js';
import { UiAction, UiForm, UiPage, UiPathParam } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';
import { catalogKeyFormPage, modeConfirmPage, previewPage, shopDonePage } from './ui-shop-pages.js';

const MAX_KEY_LENGTH = 512;
const ERRORS = [400, 404, 409];
const ACTION_ERRORS = [400, 403, 404, 409];

/**
 * Why: a shop's settings from the web view, through the services the admin API's
 * `PUT /admin/shops/{shop}/mode` and `.../catalog-key` use: switching between live and shadow
 * (confirm page, POST with the CSRF token, result), setting an installed shop's catalog key
 * (a password input, never echoed), and its preview page with the CSV served under the session.
 */
@ApiTags('admin-ui')
@Controller('admin/ui/shops/:shop')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
@UiPathParam('shop')
export class AdminUiShopSettingsController {
  constructor(
    private readonly shops: Shops,
    private readonly modes: ShopModes,
    private readonly goLive: GoLive,
    private readonly directory: InstalledShopDirectory,
    private readonly planned: PlannedWritesRepository,
    private readonly clock: Clock,
  ) {}

  @Get('mode')
  @UiPage({
    operationId: 'uiShopModeConfirm',
    summary: "A shop's live/shadow switch confirm page",
    errors: ERRORS,
  })
  async confirmMode(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const domain = this.shopOf(shop);
    const to = (await this.modes.modeOf(domain)) === 'live' ? 'shadow' : 'live';
    sendHtml(res, 200, modeConfirmPage(domain, to, csrfOf(req)));
  }

  @Post('mode')
  @UiAction({
    operationId: 'uiShopMode',
    summary: 'Switch a shop to live or shadow (409 when pinned)',
    answer: 'page',
    errors: ACTION_ERRORS,
    form: UiShopModeForm,
  })
  async setMode(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('shop') shop: string,
    @UiForm() form: UiShopModeForm,
  ): Promise<void> {
    const domain = this.shopOf(shop);
    const mode = form.mode;
    let before: ShopMode;
    try {
      before = await this.modes.set(domain, mode);
    } catch (error) {
      if (!(error instanceof ShopModeRefused)) throw error;
      const code =
        error.problem === 'unknown' ? ConnectorErrorCode.NOT_FOUND : ConnectorErrorCode.MODE_PINNED;
      throw new ConnectorError(code, error.message, { shop: domain });
    }
    const again = before === 'shadow' && mode === 'live';
    if (again) await this.goLive.start(domain);
    const message =
      before === mode
        ? `${domain} was already ${mode}: nothing changed.`
        : `${domain} switched from ${before} to ${mode}${again ? '; every product with planned writes is being synced again' : ''}.`;
    sendHtml(res, 200, shopDonePage(`Mode of ${domain}`, message, csrfOf(req)));
  }

  @Get('catalog-key')
  @UiPage({
    operationId: 'uiShopCatalogKeyForm',
    summary: "An installed shop's catalog key form (409 for a configured shop)",
    errors: ERRORS,
  })
  keyForm(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): void {
    sendHtml(res, 200, catalogKeyFormPage(this.installedShop(shop), null, csrfOf(req)));
  }

  @Post('catalog-key')
  @UiAction({
    operationId: 'uiShopCatalogKey',
    summary: "Set an installed shop's catalog key (never echoed)",
    answer: 'page',
    errors: ACTION_ERRORS,
    form: UiCatalogKeyForm,
  })
  async setKey(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('shop') shop: string,
    @UiForm() form: UiCatalogKeyForm,
  ): Promise<void> {
    const domain = this.installedShop(shop);
    const apiKey = form.apiKey ?? '';
    if (!/^\S+$/.test(apiKey) || apiKey.length > MAX_KEY_LENGTH) {
      const problem = `The catalog API key is text without spaces, at most ${MAX_KEY_LENGTH} characters.`;
      sendHtml(res, 400, catalogKeyFormPage(domain, problem, csrfOf(req)));
      return;
    }
    await this.directory.configure(domain, { catalogApiKey: apiKey });
    sendHtml(
      res,
      200,
      shopDonePage(`Catalog key of ${domain}`, `The catalog key of ${domain} is set.`, csrfOf(req)),
    );
  }

  @Get('preview')
  @UiPage({
    operationId: 'uiShopPreview',
    summary: 'What a shop in shadow would have sent: counts, field diffs, final states',
    errors: ERRORS,
  })
  async preview(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): Promise<void> {
    sendHtml(res, 200, previewPage(await this.previewOf(this.shopOf(shop)), csrfOf(req), this.clock.now()));
  }

  /** The preview's CSV under the session (the admin API's `?format=csv` needs the admin token). */
  @Get('preview.csv')
  @UiPage({
    operationId: 'uiShopPreviewCsv',
    summary: "The shop's preview as CSV, one line per changed field (under the session)",
    answer: 'text/csv',
    errors: [400],
  })
  async previewCsv(@Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const domain = this.shopOf(shop);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="${domain}-preview.csv"`)
      .setHeader('Cache-Control', 'no-store')
      .end(previewCsv(await this.previewOf(domain)));
  }

  private async previewOf(domain: string) {
    return shopPreview(domain, await this.modes.modeOf(domain), await this.planned.ofShop(domain));
  }

  private shopOf(shop: string): string {
    const found = this.shops.find(shop);
    if (!found) throw bad('shop', 'Name a shop this connector serves.');
    return found.domain;
  }

  private installedShop(shop: string): string {
    const found = this.shops.find(shop);
    if (!found) throw bad('shop', 'Name a shop this connector serves.');
    if (this.shops.configured.includes(found)) {
      throw new ConnectorError(
        ConnectorErrorCode.SHOP_CONFIGURED,
        `${found.domain} is configured in the environment (CONNECTOR_SHOP_${found.key}_*): change it there.`,
        { shop: found.domain },
      );
    }
    return found.domain;
  }
}

function bad(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
