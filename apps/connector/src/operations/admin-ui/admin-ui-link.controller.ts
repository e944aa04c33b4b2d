import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { LinkService } from '../../resync/link.service.js';
import type { LinkMatch } from '../../resync/link-matcher.js';
import { Shops } from '../../shops/shops.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiLinkForm } from './ui-forms.dto.js';
import { linkDonePage, linkDryRunPage, linkMatchOf } from './ui-link-pages.js';
import { UiAction, UiForm, UiPage, UiPathParam, UiQuery } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

/**
 * Why: linking a pre-filled catalog from the web view (issue 33): the page runs the link as a dry
 * run (changes nothing) and shows what it would link; that is the confirm step of the real run
 * (POST with the session's CSRF token), whose page shows what it did. `LinkService` as the admin API.
 */
@ApiTags('admin-ui')
@Controller('admin/ui/link/:shop')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
@UiPathParam('shop', { maxLength: 255 })
export class AdminUiLinkController {
  constructor(
    private readonly shops: Shops,
    private readonly links: LinkService,
  ) {}

  @Get()
  @UiPage({
    operationId: 'uiLinkDryRun',
    summary: 'Link a pre-filled catalog: the dry run (changes nothing), the confirm step of the real run',
    errors: [400, 404],
  })
  @UiQuery('match', 'sku:supplierSku (default), sku:gtin, barcode:supplierSku or barcode:gtin.')
  async dryRun(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const report = await this.links.link({
      shop: this.shopOf(shop),
      match: matchOf(req.query.match),
      dryRun: true,
    });
    sendHtml(res, 200, linkDryRunPage(report, csrfOf(req)));
  }

  @Post()
  @UiAction({
    operationId: 'uiLink',
    summary: 'Link for real, then resync the shop; the page says what was linked',
    answer: 'page',
    errors: [400, 403],
    form: UiLinkForm,
  })
  async link(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('shop') shop: string,
    @UiForm() form: UiLinkForm,
  ): Promise<void> {
    const report = await this.links.link({
      shop: this.shopOf(shop),
      match: matchOf(form.match),
      dryRun: false,
      resync: true,
    });
    sendHtml(res, 200, linkDonePage(report, csrfOf(req)));
  }

  private shopOf(shop: string): string {
    const found = this.shops.find(shop);
    if (!found)
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'Name a shop this connector serves.', {
        parameter: 'shop',
      });
    return found.domain;
  }
}

function matchOf(value: unknown): LinkMatch | undefined {
  const match = linkMatchOf(value);
  if (match === null)
    throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'Choose a match from the list.', {
      parameter: 'match',
    });
  return match;
}
