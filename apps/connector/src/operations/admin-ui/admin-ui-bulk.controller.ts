import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { type CatalogKeyGroup, catalogKeyGroups } from '../../clients/catalog/catalog-key-shops.js';
import { SyncPauses } from '../../clients/catalog/sync-pauses.service.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { resolveMany } from '../admin/bulk-failures.js';
import { type FailureDto, failureDto } from '../admin/failure.dto.js';
import { ConnectorMetrics } from '../metrics/connector-metrics.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import {
  type BulkAction,
  bulkConfirmPage,
  bulkResultPage,
  catalogKeyConfirmPage,
  catalogKeyResultPage,
} from './ui-bulk-pages.js';
import { UiBulkFailuresForm, UiCatalogKeyPauseForm } from './ui-forms.dto.js';
import { UiAction, UiForm, UiPage, UiPathParam, UiQuery } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

const FAILURE_ID = /^[1-9]\d{0,17}$/;
const MAX_SELECTED = 200;
const ERRORS = [400, 404, 409];
const ACTION_ERRORS = [400, 403, 404, 409];
const KEY = UiPathParam('key', { pattern: '^[0-9a-f]{1,64}$' });

/**
 * Why: the web view's actions on several things at once: replay or dismiss the failures ticked
 * on the failures list, pause or resume every shop on a catalog key. Each is confirmed on a GET
 * page (changes nothing), done by a POST carrying the session's CSRF token (else 403), and
 * answered with a page of what it did; they use the admin API's own services.
 */
@ApiTags('admin-ui')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiBulkController {
  constructor(
    private readonly failures: FailuresService,
    private readonly metrics: ConnectorMetrics,
    private readonly shops: Shops,
    private readonly catalogs: CatalogClients,
    private readonly pauses: SyncPauses,
  ) {}

  @Get('failures/bulk')
  @UiPage({
    operationId: 'uiBulkFailuresConfirm',
    summary: 'The confirm page of a bulk replay or dismiss of the ticked failures',
    errors: ERRORS,
  })
  @UiQuery('action', 'replay or dismiss.', { enum: ['replay', 'dismiss'] })
  @UiQuery('id', 'A ticked failure id (repeated for each).')
  async confirmBulk(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    const action = actionOf(req.query.action);
    const ids = idsOf(req.query.id);
    const open: FailureDto[] = [];
    for (const id of ids) {
      const failure = await this.failures.get(id);
      if (failure?.state === 'open') open.push(failureDto(failure));
    }
    sendHtml(res, 200, bulkConfirmPage(action, open, csrfOf(req)));
  }

  @Post('failures/bulk')
  @UiAction({
    operationId: 'uiBulkFailures',
    summary: 'Replay or dismiss the confirmed failures; answers what was done',
    answer: 'page',
    errors: ACTION_ERRORS,
    form: UiBulkFailuresForm,
  })
  async bulk(@Req() req: UiRequest, @Res() res: Response, @UiForm() form: UiBulkFailuresForm): Promise<void> {
    const action = form.action;
    const ids = idsOf((form.ids ?? '').split(',').filter((id) => id !== ''));
    const outcome = await resolveMany(
      this.failures,
      this.metrics,
      ids,
      action === 'replay' ? 'replayed' : 'dismissed',
    );
    sendHtml(res, 200, bulkResultPage(action, outcome, csrfOf(req)));
  }

  @Get('catalog-keys/:key/pause')
  @UiPage({
    operationId: 'uiCatalogKeyPauseConfirm',
    summary: "A catalog key's pause confirm page (its shops listed)",
    errors: ERRORS,
  })
  @KEY
  confirmKeyPause(@Req() req: UiRequest, @Res() res: Response, @Param('key') key: string): void {
    sendHtml(res, 200, catalogKeyConfirmPage('pause', this.groupOf(key), csrfOf(req)));
  }

  @Post('catalog-keys/:key/pause')
  @UiAction({
    operationId: 'uiCatalogKeyPause',
    summary: 'Pause every shop on a catalog key (one pause per shop)',
    answer: 'page',
    errors: ACTION_ERRORS,
    form: UiCatalogKeyPauseForm,
  })
  @KEY
  async keyPause(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('key') key: string,
    @UiForm() form: UiCatalogKeyPauseForm,
  ): Promise<void> {
    const group = this.groupOf(key);
    const given = (form.reason ?? '').trim() || 'paused by an operator';
    for (const shop of group.shops)
      await this.pauses.pause(shop, `catalog key ${group.fingerprint}: ${given}`);
    sendHtml(res, 200, catalogKeyResultPage('pause', group, group.shops, csrfOf(req)));
  }

  @Get('catalog-keys/:key/resume')
  @UiPage({
    operationId: 'uiCatalogKeyResumeConfirm',
    summary: "A catalog key's resume confirm page",
    errors: ERRORS,
  })
  @KEY
  confirmKeyResume(@Req() req: UiRequest, @Res() res: Response, @Param('key') key: string): void {
    sendHtml(res, 200, catalogKeyConfirmPage('resume', this.groupOf(key), csrfOf(req)));
  }

  @Post('catalog-keys/:key/resume')
  @UiAction({
    operationId: 'uiCatalogKeyResume',
    summary: 'Resume every shop on a catalog key',
    answer: 'page',
    errors: ACTION_ERRORS,
  })
  @KEY
  async keyResume(@Req() req: UiRequest, @Res() res: Response, @Param('key') key: string): Promise<void> {
    const group = this.groupOf(key);
    const resumed: string[] = [];
    for (const shop of group.shops) if (await this.pauses.resume(shop)) resumed.push(shop);
    sendHtml(res, 200, catalogKeyResultPage('resume', group, resumed, csrfOf(req)));
  }

  private groupOf(key: string): CatalogKeyGroup {
    const group = catalogKeyGroups(this.shops, this.catalogs).find((g) => g.fingerprint === key);
    if (!group) throw bad('key', 'Name the catalog key of a shop this connector serves.');
    return group;
  }
}

function actionOf(value: unknown): BulkAction {
  if (value === 'replay' || value === 'dismiss') return value;
  throw bad('action', 'Choose replay or dismiss.');
}

/** The selected failure ids (one or several `id`), each a failure id, at most 200. */
function idsOf(value: unknown): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (list.length > MAX_SELECTED) throw bad('id', `Select at most ${MAX_SELECTED} failures.`);
  if (!list.every((id): id is string => typeof id === 'string' && FAILURE_ID.test(id))) {
    throw bad('id', 'Each selected failure must be a failure id.');
  }
  return [...new Set(list)];
}

function bad(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
