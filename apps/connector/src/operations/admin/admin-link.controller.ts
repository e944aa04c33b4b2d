import { Controller, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { LinkService } from '../../resync/link.service.js';
import type { LinkMatch } from '../../resync/link-matcher.js';
import { LinkReportDto } from '../../resync/link-report.dto.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { LinkQuery } from './run-parameters.dto.js';

/**
 * Linking a pre-filled catalog over HTTP (README, "Linking"): `?shop=` and optionally
 * `match=<shopify field>:<catalog field>`, `dryRun=true` (report only), `resync=false` (link
 * only). The admin token is needed.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/link')
@UseGuards(AdminTokenGuard)
export class AdminLinkController {
  constructor(private readonly links: LinkService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'linkCatalog',
    summary:
      "Link the shop's products to records already in the catalog (first run), or report it (`dryRun`)",
    description:
      'Scans the catalog account by keyset (500 per search), matches each Shopify product by `match`, enters the matches in the sku map with their own supplierSku, then starts a whole-shop resync (unless `resync=false`). A dry run writes nothing.',
  })
  @ApiOkResponse({ type: LinkReportDto })
  @ApiConnectorErrors(400, 404)
  link(@Query() query: LinkQuery): Promise<LinkReportDto> {
    const [shopify, catalog] = query.match?.split(':') ?? [];
    const match = query.match === undefined ? undefined : ({ shopify, catalog } as LinkMatch);
    return this.links.link({
      shop: query.shop.toLowerCase(),
      match,
      dryRun: query.dryRun ?? false,
      resync: query.resync ?? true,
    });
  }
}
