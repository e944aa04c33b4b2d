import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { AdminJsonBodyInterceptor } from '../admin/admin-json-body.interceptor.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import type { AlertDelivery } from './alert-delivery.entity.js';
import {
  AlertDeliveryDto,
  AlertDeliveryListDto,
  AlertDeliveryQuery,
  AlertTargetBody,
  type AlertTargetDto,
  AlertTargetListDto,
  CreatedAlertTargetDto,
} from './alert-target.dto.js';
import { AlertTargets, type AlertTargetView } from './alert-targets.service.js';

/**
 * Why: the alerts over HTTP (docs/alerts.md, "Alerts"): register a notification target (a signed
 * webhook or a Slack incoming webhook, for one shop or every shop), list and remove them, and
 * read the latest deliveries with their attempts. Every route needs the admin token.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminAlertTargetsController {
  constructor(
    private readonly targets: AlertTargets,
    private readonly deliveries: AlertDeliveriesRepository,
  ) {}

  @Post('alert-targets')
  @HttpCode(201)
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'addAlertTarget',
    summary: 'Register a target told about shop state changes (a signed webhook, or Slack)',
    description:
      'Each shop state change (healthy, degraded, failing, per the overview) that holds for CONNECTOR_ALERT_DEBOUNCE_MS is POSTed once to every target of the shop (its own and every shop\'s), retried with back-off, then left in the failures inbox. A webhook gets a JSON body signed with X-Connector-Signature (sha256=HMAC-SHA256 of "<X-Connector-Timestamp>.<raw body>" with its secret); Slack gets {"text"}. The URL and the secret are stored encrypted (CONNECTOR_ENCRYPTION_KEYS); a generated secret is in this answer only.',
  })
  @ApiCreatedResponse({ type: CreatedAlertTargetDto })
  @ApiConnectorErrors(400, 413)
  async add(@Body() body: AlertTargetBody): Promise<CreatedAlertTargetDto> {
    const { target, secret } = await this.targets.add(body);
    return { ...targetDto(target), ...(secret === null ? {} : { secret }) };
  }

  @Get('alert-targets')
  @ApiOperation({ operationId: 'listAlertTargets', summary: 'The alert targets, without their secrets' })
  @ApiOkResponse({ type: AlertTargetListDto })
  async list(): Promise<AlertTargetListDto> {
    return { targets: (await this.targets.list()).map(targetDto) };
  }

  @Delete('alert-targets/:id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'removeAlertTarget',
    summary: 'Remove an alert target; its deliveries stay listed under its label',
  })
  @ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiConnectorErrors(404)
  async remove(@Param('id') id: string): Promise<void> {
    if (!(await this.targets.remove(id)))
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No alert target ${id}.`, { id });
  }

  @Get('alert-deliveries')
  @ApiOperation({
    operationId: 'listAlertDeliveries',
    summary: 'The latest alert deliveries, newest first, with their attempts and last answer',
  })
  @ApiOkResponse({ type: AlertDeliveryListDto })
  @ApiConnectorErrors(400)
  async deliveriesList(@Query() query: AlertDeliveryQuery): Promise<AlertDeliveryListDto> {
    const rows = await this.deliveries.latest({ shop: query.shop, state: query.state }, query.limit ?? 50);
    return { deliveries: rows.map(deliveryDto) };
  }
}

function targetDto(view: AlertTargetView): AlertTargetDto {
  return { ...view, createdAt: view.createdAt.toISOString() };
}

function deliveryDto(row: AlertDelivery): AlertDeliveryDto {
  return {
    id: row.id,
    targetId: row.targetId,
    target: row.targetLabel,
    kind: row.kind,
    shop: row.shop,
    from: row.fromState,
    to: row.toState,
    cause: row.cause,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    changedAt: row.changedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}
