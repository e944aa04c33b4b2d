import { Controller, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ResyncService } from '../../resync/resync.service.js';
import type { ResyncRunDto } from '../../resync/resync-run.dto.js';
import { dryRunOf, parameters } from './admin-run-parameters.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/**
 * `POST /admin/reconcile?shop=[&dryRun=true]` (issue 31): the shop's reconciliation now, as a
 * run of scope `reconcile` shown by `GET /admin/resync/{id}` (what it found, and a dry run's
 * plan: it reads and plans those products, sends nothing, leaves the checkpoint). The
 * parameters may also come in a JSON body.
 */
@Controller('admin/reconcile')
@UseGuards(AdminTokenGuard)
export class AdminReconcileController {
  constructor(private readonly resync: ResyncService) {}

  @Post()
  @HttpCode(200)
  async start(@Query() query: Record<string, unknown>, @Req() req: Request): Promise<ResyncRunDto> {
    const given = await parameters(query, req, ['shop', 'dryRun']);
    if (typeof given.shop !== 'string' || given.shop === '') {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop is required.', { parameter: 'shop' });
    }
    return this.resync.startReconcile(given.shop.toLowerCase(), dryRunOf(given));
  }
}
