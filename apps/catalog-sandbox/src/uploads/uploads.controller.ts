import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { ok } from '../http/envelope.js';
import { parsePrepareBody } from './prepare-body.js';
import { publicBaseUrl } from './public-base-url.js';
import { UploadsService } from './uploads.service.js';

/** The `/v1` half of the media upload: prepare, then poll the status (both need `uploads:write`). */
@Controller('v1/upload')
@UseGuards(ApiKeyGuard)
export class UploadsController {
  constructor(
    private readonly uploads: UploadsService,
    @Inject(SANDBOX_CONFIG) private readonly config: CatalogSandboxConfig,
  ) {}

  @Post('prepare')
  @HttpCode(200)
  @RequirePermission(Permission.UPLOADS_WRITE)
  prepare(@CurrentAccount() account: Account, @Body() body: unknown, @Req() req: Request) {
    return ok(this.uploads.prepare(account, parsePrepareBody(body), publicBaseUrl(this.config, req)));
  }

  @Get('status')
  @RequirePermission(Permission.UPLOADS_WRITE)
  status(@CurrentAccount() account: Account, @Query() query: Record<string, unknown>) {
    return ok(this.uploads.status(account, { uploadId: query.uploadId, fileName: query.fileName }));
  }
}
