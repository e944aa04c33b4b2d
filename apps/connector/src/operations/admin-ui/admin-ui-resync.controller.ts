import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ResyncService } from '../../resync/resync.service.js';
import { Shops } from '../../shops/shops.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiResyncSelectionForm } from './ui-forms.dto.js';
import { UiAction, UiForm, UiPage, UiQuery } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';
import {
  resyncSelectionConfirmPage,
  resyncSelectionResultPage,
  type SelectedProduct,
  type SelectionOutcome,
} from './ui-resync-pages.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;
const MAX_SELECTED = 50;

/**
 * Why: resync a selection of products ticked on the products page: a GET confirm page lists
 * them (changes nothing), a POST carrying the session's CSRF token (else 403) starts one resync
 * run per product through the admin API's `ResyncService`, and the answer names each run.
 */
@ApiTags('admin-ui')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiResyncController {
  constructor(
    private readonly resync: ResyncService,
    private readonly shops: Shops,
  ) {}

  @Get('resync-selection')
  @UiPage({
    operationId: 'uiResyncSelectionConfirm',
    summary: "A selection's resync confirm page: the ticked products listed",
    errors: [400, 404, 409],
  })
  @UiQuery('item', 'A selected product, `<shop>:<product id>` (repeated, at most 50).')
  confirm(@Req() req: UiRequest, @Res() res: Response): void {
    const raw = req.query.item;
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    sendHtml(res, 200, resyncSelectionConfirmPage(this.itemsOf(list), csrfOf(req)));
  }

  @Post('resync-selection')
  @UiAction({
    operationId: 'uiResyncSelection',
    summary: 'Resync a selection of products: one resync run per product',
    answer: 'page',
    errors: [400, 403, 404, 409],
    form: UiResyncSelectionForm,
  })
  async start(
    @Req() req: UiRequest,
    @Res() res: Response,
    @UiForm() form: UiResyncSelectionForm,
  ): Promise<void> {
    const items = this.itemsOf((form.items ?? '').split(',').filter((item) => item !== ''));
    if (items.length === 0) throw bad('Select at least one product.');
    const outcomes: SelectionOutcome[] = [];
    for (const item of items) {
      try {
        const run = await this.resync.start(item.shop, item.productId);
        outcomes.push({ ...item, runId: run.id, error: null });
      } catch (error) {
        outcomes.push({
          ...item,
          runId: null,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    sendHtml(res, 200, resyncSelectionResultPage(outcomes, csrfOf(req)));
  }

  /** The selected products (`<shop>:<product id>`, a shop this connector serves), at most 50, once each. */
  private itemsOf(list: readonly unknown[]): SelectedProduct[] {
    if (list.length > MAX_SELECTED) throw bad(`Select at most ${MAX_SELECTED} products.`);
    const items = new Map<string, SelectedProduct>();
    for (const value of list) {
      const [shop = '', productId = '', ...rest] = typeof value === 'string' ? value.split(':') : [];
      const served = this.shops.find(shop);
      if (rest.length > 0 || !served || !PRODUCT_ID.test(productId))
        throw bad('Each selected product must be a product id of a shop this connector serves.');
      items.set(`${served.domain}:${productId}`, { shop: served.domain, productId });
    }
    return [...items.values()];
  }
}

function bad(message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter: 'item' });
}
