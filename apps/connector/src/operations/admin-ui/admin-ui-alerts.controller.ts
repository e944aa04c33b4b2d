import { Controller, Get, HttpCode, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { AlertSettings } from '../../platform/config/settings.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { AlertDeliveriesRepository } from '../alerts/alert-deliveries.repository.js';
import { ALERT_TARGET_KINDS, type AlertTargetKind } from '../alerts/alert-target.entity.js';
import { AlertTargets, type AlertTargetView } from '../alerts/alert-targets.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { alertsPage } from './ui-alert-pages.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

const HTML_PAGE = { description: 'The page (HTML)', schema: { type: 'string' } };
const CSRF = { type: 'string', description: "The session's CSRF token (in every page's forms)." };

/**
 * Why: the alerts in the web view (issue 42): the notification targets and the latest
 * notifications, each shop as the alerts see it; a target added with a form (its generated
 * secret shown on the answer, once) and removed with a button, through what the admin API's
 * `/admin/alert-targets` uses (`AlertTargets`).
 */
@ApiTags('admin-ui')
@ApiCookieAuth('adminSession')
@ApiProduces('text/html')
@ApiConnectorErrors(401, 503)
@Controller('admin/ui/alerts')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiAlertsController {
  constructor(
    private readonly targets: AlertTargets,
    private readonly deliveries: AlertDeliveriesRepository,
    private readonly shops: Shops,
    private readonly settings: AlertSettings,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'uiAlerts',
    summary: 'The alert targets, each shop as the alerts see it, and the latest notifications',
  })
  @ApiOkResponse(HTML_PAGE)
  async show(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    await this.render(req, res);
  }

  @Post('targets')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'uiAddAlertTarget',
    summary: 'Add an alert target; the page shows its generated secret this once',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['_csrf', 'kind', 'url'],
      properties: {
        _csrf: CSRF,
        kind: { type: 'string', enum: [...ALERT_TARGET_KINDS] },
        url: { type: 'string', description: 'An HTTPS URL (plain HTTP only to this machine).' },
        label: { type: 'string' },
        shop: { type: 'string', description: 'One shop; empty: every shop.' },
        secret: { type: 'string', description: "A webhook's signing secret; empty: generated." },
      },
    },
  })
  @ApiOkResponse(HTML_PAGE)
  @ApiConnectorErrors(400, 403)
  async add(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    const form = req.uiForm ?? {};
    const kind = ALERT_TARGET_KINDS.find((k) => k === form.kind);
    if (kind === undefined)
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'Choose the kind: webhook or Slack.', {
        parameter: 'kind',
      });
    const added = await this.targets.add({
      kind: kind as AlertTargetKind,
      url: form.url ?? '',
      label: form.label || undefined,
      shop: form.shop || null,
      secret: form.secret || undefined,
    });
    await this.render(req, res, added);
  }

  @Post('targets/:id/remove')
  @ApiOperation({
    operationId: 'uiRemoveAlertTarget',
    summary: 'Remove an alert target; 303 to the alerts page',
  })
  @ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: { type: 'object', required: ['_csrf'], properties: { _csrf: CSRF } } })
  @ApiResponse({ status: 303, description: 'Removed: to the alerts page' })
  @ApiConnectorErrors(403, 404)
  async remove(@Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!(await this.targets.remove(id)))
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No alert target ${id}.`, { id });
    res.redirect(303, '/admin/ui/alerts');
  }

  private async render(
    req: UiRequest,
    res: Response,
    added?: { target: AlertTargetView; secret: string | null },
  ): Promise<void> {
    const [targets, shops, deliveries] = await Promise.all([
      this.targets.list(),
      this.deliveries.shopStates(),
      this.deliveries.latest({}, 100),
    ]);
    const view = {
      targets,
      shops,
      deliveries,
      shopNames: this.shops.all.map((s) => s.domain),
      debounceMs: this.settings.debounceMs,
      checkIntervalMs: this.settings.checkIntervalMs,
      ...(added === undefined ? {} : { added }),
    };
    sendHtml(res, 200, alertsPage(view, this.clock.now(), csrfOf(req)));
  }
}
